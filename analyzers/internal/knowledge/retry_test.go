package knowledge

import (
	"go/constant"
	"go/types"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
)

// settingName is how a table names what sets something: a function or method ("Attempts",
// "Builder.WithMaxRetries"), a package variable, a literal ("ExponentialBackOff{}"), or a
// field of one ("Policy.MaxAttempts").
var settingName = regexp.MustCompile(`^[A-Z]\w*(\.[A-Z]\w*|\{\})?$`)

// TestLibraries checks that every retry library's table is well formed, so that a new file
// cannot silently teach the model nothing (an entry no call can match, a hint the messages
// cannot fill).
func TestLibraries(t *testing.T) {
	type fn struct{ path, recv, name string }
	claimed := make(map[fn]string)
	all := append(slices.Clone(Libraries), GRPCRetry)
	seen := make(map[*Library]bool)
	for _, lib := range all {
		if lib.Name == "" || len(lib.Paths) == 0 {
			t.Errorf("library %q: want a name and at least one package path", lib.Name)
			continue
		}
		if seen[lib] {
			t.Errorf("%s: listed twice", lib.Name)
		}
		seen[lib] = true
		if len(lib.Helpers)+len(lib.Clients) == 0 {
			t.Errorf("%s: neither helpers nor clients: no call is ever its scope", lib.Name)
		}
		if len(lib.Helpers) > 0 && !lib.FixedWaits && (lib.CapHint == "" || lib.DeadlineHint == "") {
			t.Errorf("%s: a helper library needs CapHint and DeadlineHint for nojitter's messages", lib.Name)
		}
		if strings.Contains(lib.CapHint, "%") {
			t.Errorf("%s: CapHint %q: no verbs", lib.Name, lib.CapHint)
		}
		if lib.DeadlineHint != "" && strings.Count(lib.DeadlineHint, "%s") != 1 {
			t.Errorf("%s: DeadlineHint %q: want one %%s for the context", lib.Name, lib.DeadlineHint)
		}
		for name, opt := range lib.Settings {
			if !settingName.MatchString(name) {
				t.Errorf("%s: setting %q is not a function, variable, Type{} or Type.Field", lib.Name, name)
			}
			if opt.Jitter != nil {
				checkJitterFix(t, lib.Name+" "+name, name, opt)
			}
		}
		for _, made := range lib.Made {
			if _, ok := lib.Settings[made]; !ok {
				t.Errorf("%s: Made %q is not among its settings, so no call can find it", lib.Name, made)
			}
		}
		check := func(kind string, e Entry) {
			if len(e.Names) == 0 && (kind == "helper" || e.Recv == "") {
				t.Errorf("%s: a %s entry of %q with no names matches nothing", lib.Name, kind, e.Recv)
			}
			if e.Path != "" && !slices.Contains(lib.Paths, e.Path) {
				t.Errorf("%s: entry path %q is not one of its paths", lib.Name, e.Path)
			}
			if e.Ctx < -1 || slices.ContainsFunc(e.Config, func(i int) bool { return i < -1 }) {
				t.Errorf("%s: %v: argument indexes are -1 (none, or the receiver) or more", lib.Name, e.Names)
			}
			if kind == "helper" && e.Arg < 0 && e.Field == "" {
				t.Errorf("%s: helper %v names neither the retried argument nor a field", lib.Name, e.Names)
			}
			if lib.Prefix {
				return
			}
			for _, p := range lib.Paths {
				for _, n := range e.Names {
					k := fn{p, e.Recv, n}
					if other, ok := claimed[k]; ok && other != lib.Name && kind == "helper" {
						t.Errorf("%s.%s.%s: a helper of both %s and %s", p, e.Recv, n, other, lib.Name)
					}
					claimed[k] = lib.Name
				}
			}
		}
		for _, e := range lib.Helpers {
			check("helper", e)
		}
		for _, e := range lib.Clients {
			check("client", e)
		}
	}
}

func TestCount(t *testing.T) {
	num := func(n int64) ssa.Value { return ssa.NewConst(constant.MakeInt64(n), types.Typ[types.Int]) }
	param := new(ssa.Parameter)
	for _, tc := range []struct {
		name string
		c    Count
		v    ssa.Value
		want Bound
	}{
		{"retries", AttemptsOf(1), num(4), Bound{Kind: BoundConst, N: 5}},
		{"attempts", AttemptsOf(0), num(4), Bound{Kind: BoundConst, N: 4}},
		{"zero means forever", AttemptsOf(0).ZeroMeans(Unbounded), num(0), *Unbounded},
		{"zero without a rule", AttemptsOf(1), num(0), Bound{Kind: BoundConst, N: 1}},
		{"negative means once", AttemptsOf(1).NegativeMeans(Once), num(-1), *Once},
		{"negative without a rule", AttemptsOf(1), num(-3), Bound{Kind: BoundConst, N: 1}},
		{"run-time value", AttemptsOf(0), param, Bound{Kind: BoundVar}},
	} {
		if got := tc.c.Of(tc.v); got != tc.want {
			t.Errorf("%s: Of = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestVersions(t *testing.T) {
	got := Versions("github.com/x/retry", 1, 2, 5)
	want := []string{"github.com/x/retry", "github.com/x/retry/v2", "github.com/x/retry/v5"}
	if !slices.Equal(got, want) {
		t.Errorf("Versions = %q, want %q", got, want)
	}
}

// TestFrameworks checks every framework's table: a kind, its library's packages, entries in
// them, and identities whose expression names the variable.
func TestFrameworks(t *testing.T) {
	for _, fw := range Frameworks {
		if fw.Name == "" || fw.Noun == "" || fw.Kind == 0 || fw.Library == nil || len(fw.Library.Paths) == 0 {
			t.Errorf("framework %q: want a name, a noun, a kind and a library with packages", fw.Name)
			continue
		}
		if len(fw.Registers)+len(fw.Runs)+len(fw.Shapes)+len(fw.Deliveries)+len(fw.Receives)+len(fw.Marks) == 0 {
			t.Errorf("%s: nothing finds the code it runs", fw.Name)
		}
		for _, group := range [][]Entry{fw.Registers, fw.Runs, fw.Receives, fw.Requeues, fw.AtOnce, fw.Settles} {
			for _, e := range group {
				if len(e.Names) == 0 {
					t.Errorf("%s: an entry of %q with no names", fw.Name, e.Recv)
				}
			}
		}
		for _, id := range fw.Identities {
			if id.Expr != "" && !strings.Contains(id.Expr, "$v") {
				t.Errorf("%s: identity %q: its expression does not use the variable ($v)", fw.Name, id.What)
			}
			if (id.Of == "") == !id.Fetched {
				t.Errorf("%s: identity %q: want the type it is computed from, or fetched", fw.Name, id.What)
			}
		}
	}
}

// checkJitterFix checks that a setting's jitter fix can be written where the setting stands:
// a field's fix at a stored field, a call's at a call, and text that only names the package
// and the value.
func checkJitterFix(t *testing.T, where, name string, opt Option) {
	t.Helper()
	fix := opt.Jitter
	field, literal := strings.Contains(name, "."), strings.HasSuffix(name, "{}")
	switch fix.Kind {
	case FixValue:
		if !field {
			t.Errorf("%s: FixValue replaces a stored field's value; the setting is not a field", where)
		}
	case FixField:
		if !literal {
			t.Errorf("%s: FixField adds a field to a literal; the setting is not Type{}", where)
		}
	case FixArg, FixWrap, FixAfter:
		if field || literal {
			t.Errorf("%s: kind %d rewrites a call; the setting is not a function", where, fix.Kind)
		}
	default:
		t.Errorf("%s: jitter fix without a kind", where)
	}
	if (fix.Kind == FixAfter) != (fix.In != "") {
		t.Errorf("%s: In names the enclosing option of a FixAfter, and only there", where)
	}
	if fix.LibraryValue && fix.Kind != FixValue {
		t.Errorf("%s: LibraryValue applies to FixValue only", where)
	}
	rest := strings.NewReplacer("{pkg}", "", "{value}", "").Replace(fix.Text)
	if strings.ContainsAny(rest, "{}") && fix.Kind != FixField || fix.Text == "" {
		t.Errorf("%s: fix text %q: only {pkg} and {value} are filled in", where, fix.Text)
	}
	if got := fix.Code("", "d"); strings.Contains(got, "{") {
		t.Errorf("%s: Code left a placeholder: %q", where, got)
	}
	if got, want := fix.Code("q", "d"), strings.NewReplacer("{pkg}", "q", "{value}", "d").Replace(fix.Text); got != want {
		t.Errorf("%s: Code(q, d) = %q, want %q", where, got, want)
	}
}
