package unkeyedretry_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/checktest"
	"github.com/idemlint/idemlint/analyzers/unkeyedretry"
)

// TestUnkeyedRetry runs unkeyedretry on every package under testdata/src/unkeyedretry but
// those the flag tests below run with their flags set.
func TestUnkeyedRetry(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	dirs, err := os.ReadDir(filepath.Join(testdata, "src", "unkeyedretry"))
	if err != nil {
		t.Fatal(err)
	}
	var pkgs []string
	for _, d := range dirs {
		if d.IsDir() && d.Name() != "grpcfuncs" && d.Name() != "reads" {
			pkgs = append(pkgs, "unkeyedretry/"+d.Name())
		}
	}
	pkgs = append(pkgs, "github.com/hashicorp/go-retryablehttp") // a client's own API: its callers decide
	pkgs = append(pkgs, "unkeyedretry/rpcnode/test")             // a test-support package: not reported
	checktest.Run(t, testdata, unkeyedretry.Analyzer, pkgs...)
}

func TestMarked(t *testing.T) {
	for flag, value := range map[string]string{
		"grpc":  "payments.v1.Payments/Charge,legacy.Billing/*",
		"funcs": "example.com/queue.Producer.Publish",
	} {
		if err := unkeyedretry.Analyzer.Flags.Set(flag, value); err != nil {
			t.Fatal(err)
		}
	}
	defer func() {
		for _, flag := range []string{"grpc", "funcs"} {
			unkeyedretry.Analyzer.Flags.Lookup(flag).Value.(interface{ Reset() }).Reset()
		}
	}()
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, unkeyedretry.Analyzer, "unkeyedretry/grpcfuncs")
}

func TestReads(t *testing.T) {
	if err := unkeyedretry.Analyzer.Flags.Set("reads", "/v1/flags,unkeyedretry/reads.Client.segments"); err != nil {
		t.Fatal(err)
	}
	defer unkeyedretry.Analyzer.Flags.Lookup("reads").Value.(interface{ Reset() }).Reset()
	for _, bad := range []string{"/v1/[", "not a func"} {
		if err := unkeyedretry.Analyzer.Flags.Set("reads", bad); err == nil {
			t.Errorf("-unkeyedretry.reads=%s accepted", bad)
		}
	}
	testdata, _ := filepath.Abs("../../testdata")
	analysistest.Run(t, testdata, unkeyedretry.Analyzer, "unkeyedretry/reads")
}
