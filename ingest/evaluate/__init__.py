"""Measuring the product: scorers shared by the tests and the benchmarks (law boundaries against
the hand-read gold, citations against the hand-made cases, situation tags against the judged
sample) and a served instance for browser and load tests. Reads built databases; builds nothing."""
