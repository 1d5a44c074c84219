package retryscope

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
	"github.com/idemlint/idemlint/analyzers/internal/knowledge"
	"github.com/idemlint/idemlint/analyzers/internal/loops"
	"github.com/idemlint/idemlint/analyzers/internal/typeis"
	"github.com/idemlint/idemlint/analyzers/remote"
)

// Kind says how a scope repeats its work.
type Kind uint8

const (
	Loop      Kind = iota + 1 // a hand-written for loop that leaves on success and goes round on failure
	Goto                      // a "label: ... goto label" loop that does the same
	Recursion                 // a function that calls itself again after a failure
	Callback                  // a function passed to a retry helper (a library's or an inferred one)
	Client                    // a call through a client that retries on its own
	Iterator                  // the body of a range over a retry iterator (func(yield) that waits between yields)

	// Scopes that a framework runs again when they fail (knowledge.Frameworks): one execution is one
	// attempt, and nothing runs before the first one in the program's code.

	Activity   // a function a workflow engine runs as an activity (Temporal, Cadence)
	Handler    // a message handler, or the body of a loop over deliveries, run again on redelivery
	Reconciler // a Kubernetes reconciler, run again with backoff after an error
)

func (k Kind) String() string {
	switch k {
	case Loop:
		return "retry loop"
	case Goto:
		return "goto retry loop"
	case Recursion:
		return "retrying recursion"
	case Callback:
		return "retry callback"
	case Client:
		return "self-retrying client call"
	case Iterator:
		return "retry iterator loop"
	case Activity:
		return "workflow activity"
	case Handler:
		return "message handler"
	case Reconciler:
		return "reconciler"
	}
	return "unknown scope"
}

// The vocabulary of attempts, waits and deadlines is that of the library tables
// (internal/knowledge).
type (
	BoundKind    = knowledge.BoundKind
	Bound        = knowledge.Bound
	WaitKind     = knowledge.WaitKind
	DeadlineKind = knowledge.DeadlineKind
)

const (
	BoundUnknown = knowledge.BoundUnknown // the model cannot tell
	BoundNone    = knowledge.BoundNone    // nothing limits the attempts
	BoundConst   = knowledge.BoundConst   // at most N attempts
	BoundVar     = knowledge.BoundVar     // limited by a value known only at run time

	WaitUnknown  = knowledge.WaitUnknown  // it waits, but the model cannot tell how
	WaitNone     = knowledge.WaitNone     // it does not wait
	WaitFixed    = knowledge.WaitFixed    // a constant or configured delay, not randomised
	WaitBackoff  = knowledge.WaitBackoff  // a growing delay (linear or exponential), not randomised
	WaitJittered = knowledge.WaitJittered // a randomised delay

	DeadlineUnknown = knowledge.DeadlineUnknown
	DeadlineNone    = knowledge.DeadlineNone    // no context, no elapsed-time check, no maximum duration
	DeadlineContext = knowledge.DeadlineContext // it checks a context or passes one on to the calls it repeats
	DeadlineElapsed = knowledge.DeadlineElapsed // it checks the elapsed time, or its helper has a maximum duration
)

// A Wait is how a scope waits between attempts.
type Wait struct {
	Kind WaitKind
	// Sleeps are the waiting calls of a hand-written scope (time.Sleep, time.After, a timer's
	// Reset, an in-house sleep helper), each with its own classification; empty for helpers.
	Sleeps []Sleep
	// Unset names, for a scope that waits only when a caller sets an option, the field that
	// holds it ("retryBackoff"): by default it is nil and the scope does not wait (Kind None).
	Unset string
	// Bypass is, for a hand-written loop that waits on some ways round, a position on a way
	// round after a failure that waits nowhere and changes nothing the attempt sends (a 503
	// that goes round at once, beside a wait on 429); NoPos otherwise.
	Bypass token.Pos
}

// A Sleep is one waiting call inside a hand-written scope.
type Sleep struct {
	Call     ssa.CallInstruction
	Duration ssa.Value // the duration argument
	Kind     WaitKind
	// AfterSuccess marks a wait reached only after the decisive call succeeded: the loop
	// polls for a state ("still in progress"), it does not wait out a failure.
	AfterSuccess bool
	// At is, for a wait on a timer's channel, where the scope receives from it (a select or a
	// receive in the scope's code), when that is not Call itself.
	At ssa.Instruction
	// Unset names the function-valued field that computes the duration when the wait is made
	// only if that field is not nil, and only callers' options fill it (see Wait.Unset).
	Unset string
	// AfterLocal marks a wait reached only after calls that stay in the process failed (a
	// profiler that could not start, a local build): it waits out a local condition, not a
	// failing dependency, whatever else the loop calls.
	AfterLocal bool
	// Interruptible marks a wait a callee makes before its try that another channel can end
	// (select { case <-timer: case <-changes: return true }): the scope stops on that event.
	Interruptible bool
}

// EveryRound reports whether the scope waits sl on every way round: where it waits dominates
// every block that goes back to the loop's header.
func (s *Scope) EveryRound(sl Sleep) bool {
	if s.Loop == nil || s.Fn == nil {
		return false
	}
	at := sl.blockIn(s.Fn)
	return at != nil && s.Loop.EveryRound(at)
}

// blockIn returns the block of fn where the scope waits sl (the receive of a timer's
// channel, else the call), or nil when that is not in fn.
func (sl Sleep) blockIn(fn *ssa.Function) *ssa.BasicBlock {
	switch {
	case sl.At != nil && sl.At.Parent() == fn:
		return sl.At.Block()
	case sl.Call != nil && sl.Call.Parent() == fn:
		return sl.Call.Block()
	}
	return nil
}

// A Scope is code that runs once per attempt of one logical operation.
type Scope struct {
	Kind Kind
	// selfVar is, for a function literal that calls itself (Recursion), the variable it is
	// stored in and calls itself through.
	selfVar string

	// Fn is the function whose code repeats: the function holding the loop, the recursive
	// function, the callback, or the range body's yield function (Iterator); nil for client
	// calls and for callbacks that are not known statically.
	Fn *ssa.Function
	// Loop is the natural loop of a Loop or Goto scope.
	Loop *loops.Loop

	// Node is the syntax of the scope: *ast.ForStmt or *ast.RangeStmt (Loop), *ast.LabeledStmt
	// (Goto), *ast.FuncDecl (Recursion), the helper's or client's *ast.CallExpr (Callback,
	// Client), the *ast.RangeStmt (Iterator). It is nil when the syntax is not in this package.
	Node ast.Node
	// Stmt is the statement before which code that must run once per logical operation goes:
	// the loop (or its label), or the statement holding the helper call. Nil when there is none
	// (recursion, client calls).
	Stmt ast.Stmt
	// Body is the syntax that runs on every attempt: the loop statement, the labelled
	// statement, the recursive function, or the callback (*ast.FuncLit or *ast.FuncDecl when it
	// is in this package). From and To bound the part of it that repeats (a for loop's Init
	// does not; a goto loop runs from its label to its last goto).
	Body     ast.Node
	From, To token.Pos

	// Func is the retry helper, the client's method or the function returning the retry
	// iterator, for Callback, Client and Iterator scopes (nil for an iterator literal).
	Func *types.Func
	// Helper is Func's full name ("github.com/avast/retry-go/v4.Do").
	Helper string
	// Through names, for a Client scope whose retries come from a layer the client was built
	// with rather than its own code (a gRPC connection's retry interceptor), that layer.
	Through string
	// Site is the helper, client or iterator call that makes a Callback, Client or Iterator
	// scope.
	Site ssa.CallInstruction
	// Handed marks a Client scope whose site hands the client to another package (a generated
	// API client's WithHTTPClient option): the settings are this package's, but no request
	// goes out at the site, and no function here retries through it.
	Handed bool
	// Decisive is the call whose outcome (error or status) decides whether to go round, for
	// hand-written scopes.
	Decisive ssa.CallInstruction
	// Calls are the calls the scope repeats, in hand-written scopes and known callbacks.
	Calls []ssa.CallInstruction
	// Reach says whether an attempt may leave the process (the remote model's answer for the
	// decisive call of a hand-written scope, for every call of a callback): a retry protects a
	// remote dependency, and a scope whose attempts stay local (a lock file, a local listener,
	// an OS call) is not the herd that jitter and a single retry layer protect against.
	Reach remote.Reach

	Attempts Bound
	// SwitchedOff says that the program also sets the attempts to one (RetryMax = 0) where
	// another setting leaves them above: a layer it turns off in some configuration (when an
	// outer layer of its own retries instead), which the model cannot tie to that layer.
	SwitchedOff bool
	Wait        Wait
	Deadline    DeadlineKind
	// Inferred marks a Callback scope of a helper the model inferred (in this package or, known
	// through its helperFact, in another): the helper's own scope is where its behaviour is
	// written, and where checks report it.
	Inferred bool
	// CallersJudge marks a scope judged where its function is called: the scope of a retry
	// helper whose attempts reach the unknown only through the callbacks its callers hand it,
	// and no caller in this package hands it one that reaches a remote call (the helper's
	// reach is its callers'); and the Inferred scope of a call of such a helper, which says,
	// by its Reach, whether the callback this call hands in leaves the process.
	CallersJudge bool
	// turnedAway: the inferred helper goes round only once the answer turned the attempt
	// away (helperFact.TurnedAway).
	turnedAway bool
	// helperOn: what the inferred helper goes round on, of its callback's errors
	// (helperFact.On); 0 when not known. helperOnly and helperRefuses: the program's error
	// variables that the predicate handed to the helper alone goes round on, and those it
	// turns down (predicateSentinels). helperNamed: the errors, by name, that alone make the
	// helper go round (NamedOn).
	helperOn                  Failures
	helperOnly, helperRefuses []string
	helperNamed               []NamedError
	// helperStops: the error types the inferred helper stops on (helperFact.Stops);
	// helperMarks, the functions whose errors it stops on (helperFact.Marks).
	helperStops []string
	helperMarks []flow.FuncID
	// Brief marks a library scope whose waits are known to add up to well under a second
	// (client-go's DefaultRetry): it cannot keep its caller waiting for long.
	Brief bool
	// Iterates marks the loop of a retry iterator (see Result.IteratorLoops): each yield is
	// one attempt of the body that ranges over it.
	Iterates bool
	// Lifecycle marks a long-running loop that tries a call again after it fails (see
	// Result.Lifecycles).
	Lifecycle bool
	// Poll marks a scope that waits for a condition to hold (a Kubernetes Poll, a Terraform
	// state refresh) rather than retrying a failure.
	Poll bool
	// KeepsGoing marks a loop that hands its context to the attempt but that no failure
	// leaves: its Deadline is DeadlineNone, for once the context is done every attempt fails
	// at once and the loop goes round for ever.
	KeepsGoing bool
	// Failover is set for a hand-written loop whose every way round after a failure marks
	// the target the attempt was given (b.broken.Store(true)), or closes the connection it
	// took, and picks another the next round: it tries another backend or connection, not
	// the failing one again.
	Failover bool
	// UntilContext marks a library scope that its library's defaults or settings let go on
	// for ever (retry-go's Attempts(0), a sethvargo backoff with no WithMaxRetries), with no
	// time limit of its own: only its context ends it, and no deadline is known to be set on
	// that context.
	UntilContext bool
	// Answered marks a loop that goes round only after the dependency answered: each call it
	// makes that leaves the process leaves the loop when it fails, and what sends it round is
	// a judgement of the answer made in the process (an OAuth device flow's
	// "authorization_pending"). Its waits wait for a state (Sleep.AfterSuccess), and a request
	// it sends again was answered, its outcome known; so is a read-modify-write loop that goes
	// round only on an error variable of the module that its write returns (readModifyWrite:
	// a lost compare-and-swap). A retry library's callback is Answered
	// (and a Poll) when it hands its helper back only a "not found" answer, every other error
	// marked permanent (answeredCallback).
	Answered bool
	// Settings are the library options, constructors, literals, variables and fields that
	// configured a Callback or Client scope, in the order they were applied; empty when the
	// library's defaults hold (see WaitSetting, AttemptsSetting).
	Settings []Setting

	// Framework names the framework that runs an Activity, Handler or Reconciler scope again
	// ("Temporal", "Pub/Sub"), and Noun how messages name such a scope ("activity").
	Framework, Noun string
	// Registered is where this package hands the function to the framework or runs it with
	// options in view, if it does. A function registered here but defined in another package
	// is a scope with no Fn, whose Func is that function and whose Node is the registration.
	Registered token.Pos
	// Identity is what stays the same across the executions of a framework scope; nil for the
	// other kinds.
	Identity *Identity

	at  *ssa.Function  // the function holding the scope's syntax
	lib *library       // the library or client table entry, for Callback and Client scopes
	rem *remote.Result // the remote model, for RetriesOn
}

// Holder is the function whose code holds the scope's syntax: the function with the loop,
// the recursive function, or the function making the helper, client or iterator call.
func (s *Scope) Holder() *ssa.Function { return s.at }

// Multiplies reports whether the scope's attempts multiply the remote calls inside it: it
// retries failures (not a poll), of something remote (not a lock file), more than once.
// nestedretry's outer layers and the map's layers are these.
func (s *Scope) Multiplies() bool {
	return !s.Polls() && s.Reach != remote.ReachLocal && (s.Attempts.Kind != BoundConst || s.Attempts.N > 1)
}

// Polls reports whether the scope waits for a state rather than out a failure: a library's
// poll (Poll), or a hand-written scope whose every wait comes only after the decisive call
// succeeded ("still in progress").
func (s *Scope) Polls() bool {
	if s.Poll {
		return true
	}
	if len(s.Wait.Sleeps) == 0 {
		return false
	}
	for _, sl := range s.Wait.Sleeps {
		if !sl.AfterSuccess {
			return false
		}
	}
	return true
}

// AsksAgain reports whether the scope sends call, its decisive call, again after it
// succeeded: a wait on the way round is reached on the success side ("not final yet"), so the
// program itself repeats the request once it was answered, as one repeats a query (a status
// poll that also goes round on a transient error). Only for a call whose error is its whole
// verdict: one that returns an HTTP response succeeds with a 5xx too.
func (s *Scope) AsksAgain(call ssa.CallInstruction) bool {
	if s.Decisive == nil || s.Decisive != call || returnsResponse(call) {
		return false
	}
	for v := range call.Common().Signature().Results().Variables() {
		if typeis.Named(v.Type(), knowledge.RestyClient.Pkg, "Response") {
			return false
		}
	}
	return slices.ContainsFunc(s.Wait.Sleeps, func(sl Sleep) bool { return sl.AfterSuccess })
}

// FromFramework reports whether a framework runs the scope again (Activity, Handler,
// Reconciler): its attempts are executions of a function or of a loop body over deliveries.
func (k Kind) FromFramework() bool { return k == Activity || k == Handler || k == Reconciler }

// HandWritten reports whether a scope of this kind is a loop written in the code (a for or
// goto loop, a retrying recursion): its waits, bounds and returns are all in view.
func (k Kind) HandWritten() bool { return k == Loop || k == Goto || k == Recursion }

// An Identity is what stays the same across the executions of a framework scope (the
// workflow and activity IDs, a message ID, an object's UID and generation): an idempotency key
// derived from it is the same on every execution.
type Identity struct {
	What string // for messages: "the workflow and activity IDs"
	// Expr is a Go expression of it, in which $v stands for one of Vars and {name} for the
	// package Imports[name]; empty when none can be written safely.
	Expr    string
	Imports map[string]string
	// Vars are the variables Expr can be written with (the context or delivery parameter, the
	// loop's delivery variable, the object the reconciler fetched), each usable from its From.
	Vars []IdentityVar
}

// An IdentityVar is a variable holding what an Identity is computed from.
type IdentityVar struct {
	Var  *types.Var
	From token.Pos // where it holds it: after its declaration, or after the call that fills it
}

// Pos is where the scope starts.
func (s *Scope) Pos() token.Pos {
	switch {
	case s.Node != nil:
		return s.Node.Pos()
	case s.Decisive != nil:
		return s.Decisive.Pos()
	case s.Fn != nil:
		return s.Fn.Pos()
	}
	return token.NoPos
}

// Contains reports whether pos lies in the syntax that runs on every attempt.
func (s *Scope) Contains(pos token.Pos) bool {
	return pos.IsValid() && s.From <= pos && pos < s.To
}

// Summary is a one-line description of the scope, used in debug reports and test expectations.
func (s *Scope) Summary() string {
	var b strings.Builder
	b.WriteString(s.Kind.String())
	switch {
	case s.Helper != "":
		fmt.Fprintf(&b, " (%s)", s.Helper)
	case s.Framework != "" && s.Fn == nil && s.Func != nil:
		fmt.Fprintf(&b, " (%s, %s)", s.Framework, helperName(s.Func))
	case s.Framework != "":
		fmt.Fprintf(&b, " (%s)", s.Framework)
	}
	fmt.Fprintf(&b, ": attempts=%s wait=%s deadline=%s", s.Attempts, s.Wait.Kind, s.Deadline)
	return b.String()
}

// FuncName names Fn as its code does: a function literal that calls itself by the variable
// it is stored in.
func (s *Scope) FuncName() string {
	if s.selfVar != "" {
		return s.selfVar
	}
	return s.Fn.Name()
}

// Describe names the scope for messages, with names qualified relative to pkg: "the retry
// loop", "retry.Do", "the activity Activities.Charge", "the SQS handler loop".
func (s *Scope) Describe(pkg *types.Package) string {
	switch s.Kind {
	case Loop:
		return "the retry loop"
	case Goto:
		return "the goto retry loop"
	case Recursion:
		if s.Fn != nil {
			return "the retrying function " + s.FuncName()
		}
	case Callback, Client:
		if s.Through != "" {
			return s.Through
		}
		if s.Func != nil {
			return flow.Name(s.Func, pkg)
		}
	case Iterator:
		if s.Func != nil {
			return "the loop over " + flow.Name(s.Func, pkg)
		}
		return "the retry iterator loop"
	case Activity, Handler, Reconciler:
		switch {
		case s.Loop != nil:
			return "the " + s.Noun + " loop"
		case s.Func != nil:
			return "the " + s.Noun + " " + flow.Name(s.Func, pkg)
		}
		return "the " + s.Noun
	}
	return "a retry scope"
}

// IdentityHint says what to derive a key from in a scope a framework runs again: its stable
// identity, or what the framework's delivery keeps across runs.
func (s *Scope) IdentityHint() string {
	if s.Identity != nil {
		return s.Identity.What
	}
	return "what the " + s.Framework + " delivery keeps across runs"
}

// IdentityWhat is IdentityHint without the variable it can be read from: "the workflow and
// activity IDs".
func (s *Scope) IdentityWhat() string {
	what, _, _ := strings.Cut(s.IdentityHint(), " (")
	return what
}
