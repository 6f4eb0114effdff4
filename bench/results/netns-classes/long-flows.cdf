# Every flow 1,370 packets (2,000,200 B of payload): long flows that keep both classes backlogged.
1370 1
