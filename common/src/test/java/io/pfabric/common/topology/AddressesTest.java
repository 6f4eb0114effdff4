package io.pfabric.common.topology;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AddressesTest
{
    @Test
    void shouldRoundTripIpv4Addresses()
    {
        assertEquals(0x0A00_0001, Addresses.parseIpv4("10.0.0.1"));
        assertEquals(0xFFFF_FFFF, Addresses.parseIpv4("255.255.255.255"));
        assertEquals(0, Addresses.parseIpv4("0.0.0.0"));
        assertEquals("192.168.1.254", Addresses.formatIpv4(Addresses.parseIpv4("192.168.1.254")));
        assertEquals("255.0.0.1", Addresses.formatIpv4(0xFF00_0001));
    }

    @Test
    void shouldRejectWhatIsNotAnIpv4Address()
    {
        for (final String text : new String[]{ "", "10.0.0", "10.0.0.1.", "10.0.0.256", "010.0.0.1", "10.0.0.-1",
            "10..0.1", "a.b.c.d", "1000.0.0.1", " 10.0.0.1" })
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> Addresses.parseIpv4(text), text);
            assertEquals("'" + text + "' is not an IPv4 address like 10.0.0.1", ex.getMessage());
        }
    }

    @Test
    void shouldRoundTripMacAddresses()
    {
        assertEquals(0x02_00_0a_00_00_01L, Addresses.parseMac("02:00:0a:00:00:01"));
        assertEquals(0xFF_FF_FF_FF_FF_FFL, Addresses.parseMac("FF:ff:FF:ff:FF:ff"));
        assertEquals("02:00:0a:00:00:01", Addresses.formatMac(0x02_00_0a_00_00_01L));
        assertEquals("de:ad:be:ef:00:42", Addresses.formatMac(Addresses.parseMac("DE:AD:BE:EF:00:42")));
        assertTrue(Addresses.isMulticastMac(Addresses.parseMac("01:00:5e:00:00:01")));
        assertFalse(Addresses.isMulticastMac(Addresses.parseMac("02:00:5e:00:00:01")));
    }

    @Test
    void shouldRejectWhatIsNotAMacAddress()
    {
        for (final String text : new String[]{ "", "02:00:zz", "02:00:0a:00:00:0g", "02-00-0a-00-00-01",
            "2:00:0a:00:00:001", "02:00:0a:00:00:01:02", "0200.0a00.0001" })
        {
            final IllegalArgumentException ex =
                assertThrows(IllegalArgumentException.class, () -> Addresses.parseMac(text), text);
            assertEquals("'" + text + "' is not a MAC address like 02:00:00:00:00:01", ex.getMessage());
        }
    }
}
