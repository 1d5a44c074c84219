package testcode

import "testing"

func TestBench(t *testing.T) {
	for name, want := range map[string]bool{
		"bench": true, "benchmark": true, "benchmarks": true, "benchutil": true,
		"redisbench": true, "nats-bench": true, "riverbench": true, "kafkabenchmark": true,
		"client": false, "http": false, "benefits": false, "stretchbenchx": false,
	} {
		if got := bench(name); got != want {
			t.Errorf("bench(%q) = %v, want %v", name, got, want)
		}
	}
}
