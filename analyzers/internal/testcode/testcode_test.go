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

func TestHarness(t *testing.T) {
	for name, want := range map[string]bool{
		"rdma-test": true, "upload_test": true, "e2e-tests": true, "loadtest": true, "smoketest": true,
		"testserver": true, "e2e": true, "api-e2e": true, "wait-for": true, "wait-for-it": true, "waitfordb": true,
		"waiter": false, "e2ee-relay": false, "testnet-faucet": false,
		"latest": false, "attest": false, "server": false, "contest": false, "protester": false,
	} {
		if got := harness(name); got != want {
			t.Errorf("harness(%q) = %v, want %v", name, got, want)
		}
	}
}
