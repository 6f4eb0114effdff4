# every flow 6,850 packets (10,001,000 B of payload)
6850 0
6850 1
