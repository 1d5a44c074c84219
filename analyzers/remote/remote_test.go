package remote_test

import (
	"fmt"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// TestMain runs the tests with less garbage collection: most of their time is go/packages
// parsing and type-checking net/http and its dependencies from source, which makes garbage
// that is not worth collecting in a process this short.
func TestMain(m *testing.M) {
	debug.SetGCPercent(400)
	os.Exit(m.Run())
}

func TestModel(t *testing.T) {
	if err := remote.Analyzer.Flags.Set("report", "true"); err != nil {
		t.Fatal(err)
	}
	defer remote.Analyzer.Flags.Set("report", "false")
	testdata, _ := filepath.Abs("../../testdata")
	results := analysistest.Run(t, testdata, remote.Analyzer, "remote/...")

	// What the checks read from the Result, beyond the report (-remote.report's want
	// comments): the function called, the paramFact entry a call goes through, and the kinds
	// and positions of what leaves a call unbounded.
	want := map[string]string{
		"calls.go:19":    "http.Get source=no context client=Default",
		"calls.go:29":    "Client.Do source=http.NewRequest@28 client=Local@27",
		"calls.go:43":    "Client.Do source=context.TODO()@42 client=Default@43",
		"calls.go:75":    "GreeterClient.SayHello source=context.Background()@75",
		"calls.go:88":    "Tx.Exec source=no context",
		"facts.go:57":    "DB.Query source=no context contract=ContextFree:Query",
		"usefacts.go:13": "Client.Hello via=GreeterClient.SayHello(param 1) source=context.Background()@13",
		"usefacts.go:15": "facts.Fetch via=Client.Do(param 0) source=context.TODO()@15",
		"usefacts.go:20": "facts.Send via=Client.Do(param 0, request) source=http.NewRequest@19",
	}
	got := make(map[string]string)
	for _, r := range results {
		fset, pkg := r.Action.Package.Fset, r.Action.Package.Types
		for _, c := range r.Result.(*remote.Result).Calls {
			got[at(fset, c.Pos())] = fields(fset, pkg, c)
		}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %q, want %q", k, got[k], w)
		}
	}
}

func at(fset *token.FileSet, pos token.Pos) string {
	p := fset.Position(pos)
	return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
}

func line(fset *token.FileSet, pos token.Pos) string {
	if !pos.IsValid() {
		return ""
	}
	return fmt.Sprintf("@%d", fset.Position(pos).Line)
}

func fields(fset *token.FileSet, pkg *types.Package, c *remote.Call) string {
	var b strings.Builder
	b.WriteString(flow.Name(c.Func, pkg))
	if v := c.Via; v != nil {
		req := ""
		if v.Request {
			req = ", request"
		}
		fmt.Fprintf(&b, " via=%s(param %d%s)", v.Callee, v.Index, req)
	}
	if s := c.Timeout.Context; s.Kind != 0 {
		fmt.Fprintf(&b, " source=%s%s", s.Kind, line(fset, s.Pos))
	}
	if o := c.Timeout.Client; o != nil {
		kinds := map[remote.OriginKind]string{remote.Local: "Local", remote.ZeroVar: "ZeroVar", remote.ZeroField: "ZeroField", remote.Default: "Default", remote.Constructor: "Constructor"}
		fmt.Fprintf(&b, " client=%s%s", kinds[o.Kind], line(fset, o.Pos))
	}
	if k := c.Contract.Kind; k != 0 {
		kinds := map[remote.ContractKind]string{remote.ContextFree: "ContextFree", remote.Implements: "Implements", remote.CalledFrom: "CalledFrom"}
		fmt.Fprintf(&b, " contract=%s:%s", kinds[k], c.Contract.Name)
	}
	return b.String()
}

// TestSends checks the HTTP sends the model finds: method, path, host (after "@"), and the
// line of the call that made the request when it is one call in the same function.
func TestSends(t *testing.T) {
	testdata, _ := filepath.Abs("../../testdata")
	if err := remote.Analyzer.Flags.Set("report", "true"); err != nil {
		t.Fatal(err)
	}
	defer remote.Analyzer.Flags.Set("report", "false")
	results := analysistest.Run(t, testdata, remote.Analyzer, "remote/sends")
	want := map[string]string{
		"sends.go:19": "POST /v1/charges@api.example.com made@18",
		"sends.go:23": "PATCH /v1/orders made@22",
		"sends.go:26": "POST @api.example.com made@25",
		"sends.go:33": " @api.example.com made@32",
		"sends.go:35": "POST /v1/refunds@api.example.com",
		"sends.go:40": "POST /v1/charges@api.example.com made@39",
		"sends.go:41": "POST /v1/refunds@api.example.com",
		"sends.go:42": "GET /v1/charges@api.example.com",
		"sends.go:45": "PATCH /v1/orders@api.example.com made@43",
		"sends.go:49": "POST /v1/charges@api.example.com",
		"sends.go:50": "PATCH /v1/orders",
		"sends.go:51": "DELETE /v1/orders",
		"sends.go:52": "GET /v1/orders",
		"sends.go:58": " ",
		"sends.go:63": "POST /v1/payouts@api.example.com made@62",
		"sends.go:70": "GET @hooks.example.org:8443 made@69",
		"sends.go:85": "POST /batch@events.example.net made@84",
	}
	got := make(map[string]string)
	for _, r := range results {
		fset := r.Action.Package.Fset
		for _, s := range r.Result.(*remote.Result).Sends() {
			g := s.Method + " " + s.Path
			if s.Host != "" {
				g += "@" + s.Host
			}
			if s.Made != nil {
				g += " made" + line(fset, s.Made.Pos())
			}
			got[at(fset, s.Instr.Pos())] = g
		}
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %q, want %q", k, got[k], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("got %d sends, want %d: %v", len(got), len(want), got)
	}
}
