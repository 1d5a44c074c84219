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

func TestInTestTree(t *testing.T) {
	for _, c := range []struct {
		pkg, module string
		want        bool
	}{
		{"github.com/acme/hooks/test/helper", "github.com/acme/hooks", true},
		{"github.com/acme/hooks/tests/integration/fixtures", "github.com/acme/hooks", true},
		{"github.com/acme/hooks/test", "github.com/acme/hooks", false}, // the suite itself: its name says
		{"github.com/acme/hooks/pkg/retry", "github.com/acme/hooks", false},
		{"github.com/test/hooks/pkg/retry", "github.com/test/hooks", false},
		{"github.com/test/tests/pkg/retry", "", false},
		{"github.com/acme/hooks/test/helper", "", true},
		{"nojitter/test/helper", "", true},
		{"nojitter/testing/helper", "", false},
		{"example.com/latest/contest/attest", "", false},
	} {
		if got := inTestTree(c.pkg, c.module); got != c.want {
			t.Errorf("inTestTree(%q, %q) = %v, want %v", c.pkg, c.module, got, c.want)
		}
	}
}
