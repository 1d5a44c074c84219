package knowledge

// controller-runtime (§11): Reconcile returning an error runs again with the controller's
// rate limiter (5 ms doubling to 1000 s, no jitter) without a cap, until it succeeds or
// returns a TerminalError. The request names the object only; its UID (and generation, the
// version of its spec) identify what to do.
var ControllerRuntime = &Framework{
	Name: "controller-runtime", Noun: "reconciler", Kind: Reconcilers,
	Library: &Library{
		Name:     "sigs.k8s.io/controller-runtime",
		Paths:    []string{"sigs.k8s.io/controller-runtime/pkg/reconcile", "sigs.k8s.io/controller-runtime/pkg/client"},
		Defaults: Summary{Attempts: Bound{Kind: BoundNone}, Wait: WaitBackoff, Deadline: DeadlineNone},
	},
	Shapes: []Shape{{
		Params:  []string{"context.Context", "sigs.k8s.io/controller-runtime/pkg/reconcile.Request"},
		Results: []string{"sigs.k8s.io/controller-runtime/pkg/reconcile.Result", "error"},
	}},
	Fetch: &Entry{Recv: "Reader", Names: []string{"Get"}, Arg: 2},
	Identities: []Identity{{
		What: "the object's UID and generation", Fetched: true,
		Expr: `{fmt}.Sprintf("%s/%d", $v.GetUID(), $v.GetGeneration())`, Imports: []string{"fmt"},
	}},
}
