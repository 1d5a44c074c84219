package unkeyedretry_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/checktest"
	"github.com/idemlint/idemlint/analyzers/unkeyedretry"
)

func TestUnkeyedRetry(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	checktest.Run(t, testdata, unkeyedretry.Analyzer, "unkeyedretry/loops", "unkeyedretry/remotewrite", "unkeyedretry/hookdispatch", "unkeyedretry/hookworker", "unkeyedretry/shadow", "unkeyedretry/libs", "unkeyedretry/clients", "unkeyedretry/keyed", "unkeyedretry/sdk", "unkeyedretry/usesdk", "unkeyedretry/frameworks", "unkeyedretry/helpers", "unkeyedretry/helperloop", "unkeyedretry/recursion",
		"github.com/hashicorp/go-retryablehttp") // a client's own API: its callers decide
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
