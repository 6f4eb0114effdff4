package io.pfabric.testbed.monitor;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a monitor that gave up waiting says of the targets Prometheus had not scraped, read from the answer of its
 * {@code /api/v1/targets} (the field order Prometheus writes).
 */
class MonitorTargetsTest
{
    private static final String TARGETS = """
        {"status":"success","data":{"activeTargets":[\
        {"discoveredLabels":{"__address__":"127.0.0.1:40001"},"labels":{"daemon":"switches","instance":\
        "127.0.0.1:40001","job":"pfabric-switches"},"scrapePool":"pfabric-switches","scrapeUrl":\
        "http://127.0.0.1:40001/metrics","globalUrl":"http://host:40001/metrics","lastError":"","lastScrape":\
        "2026-11-28T11:12:56.1+00:00","lastScrapeDuration":0.004,"health":"up","scrapeInterval":"2s",\
        "scrapeTimeout":"2s"},\
        {"discoveredLabels":{"__address__":"127.0.0.1:40002"},"labels":{"daemon":"hostd","instance":\
        "127.0.0.1:40002","job":"pfabric-hostd","name":"h1"},"scrapePool":"pfabric-hostd","scrapeUrl":\
        "http://127.0.0.1:40002/metrics","globalUrl":"http://host:40002/metrics","lastError":\
        "Get \\"http://127.0.0.1:40002/metrics\\": context deadline exceeded","lastScrape":\
        "2026-11-28T11:12:57.2+00:00","lastScrapeDuration":2.019404138,"health":"down","scrapeInterval":"2s",\
        "scrapeTimeout":"2s"},\
        {"discoveredLabels":{"__address__":"127.0.0.1:40003"},"labels":{"daemon":"hostd","instance":\
        "127.0.0.1:40003","job":"pfabric-hostd","name":"h2"},"scrapePool":"pfabric-hostd","scrapeUrl":\
        "http://127.0.0.1:40003/metrics","globalUrl":"http://host:40003/metrics","lastError":"","lastScrape":\
        "0001-01-01T00:00:00Z","lastScrapeDuration":0,"health":"unknown","scrapeInterval":"2s",\
        "scrapeTimeout":"2s"}],"droppedTargets":[]}}""";

    @Test
    void namesEachTargetNotScrapedWithItsHealthLastDurationAndError()
    {
        assertEquals("; not yet: http://127.0.0.1:40002/metrics (down, last scrape 2.019404138 s: Get " +
            "\"http://127.0.0.1:40002/metrics\": context deadline exceeded), http://127.0.0.1:40003/metrics " +
            "(unknown, last scrape 0 s)", Monitor.unscraped(TARGETS, Set.of("http://127.0.0.1:40001/metrics")));
    }

    @Test
    void aTargetScrapedOnceIsNotNamedWhateverItsLastScrape()
    {
        assertEquals("; not yet: http://127.0.0.1:40003/metrics (unknown, last scrape 0 s)",
            Monitor.unscraped(TARGETS, Set.of("http://127.0.0.1:40001/metrics", "http://127.0.0.1:40002/metrics")));
    }

    @Test
    void nothingWhenEveryTargetWasScraped()
    {
        assertEquals("", Monitor.unscraped(TARGETS, Set.of("http://127.0.0.1:40001/metrics",
            "http://127.0.0.1:40002/metrics", "http://127.0.0.1:40003/metrics")));
    }
}
