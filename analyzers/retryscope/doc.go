// Package retryscope is idemlint's shared model of retry: it finds the code of a package that
// runs once per attempt of one logical operation, summarises each such retry scope, and
// exports what importing packages need to know as facts. The checks (keyinloop, nojitter,
// nestedretry, unkeyedretry) never look for retries themselves; they ask this analyzer.
//
// # Analyzer retryscope
//
// retryscope: find retry scopes and summarise them for idemlint's checks
//
// A retry scope is one of:
//
//   - a hand-written loop (for with three clauses, for cond, for {}, range over an integer)
//     that tests the outcome of a call (its error against nil, an *http.Response's
//     StatusCode, or a bool method of a struct the call returns that tests the struct's error
//     field against nil: if !herr.IsNil(); a bool field of the struct a function of the
//     package returns, which it sets true only where nothing failed and false past a
//     failure: if result.Success; the status a function of the package returns as an int:
//     status := s.send(); if !s.shouldRetry(status); the only result, a bool, of a function
//     of the package whose returns say "it worked" or "try again" (true only past a failure,
//     false on a clean way, returns of another such function followed: again :=
//     t.attempt(ctx); if !again { return })), leaves the loop on success and goes round on
//     failure; a test of a connection's own setting (conn.SetReadDeadline) is no outcome;
//   - a "label: ... goto label" loop that does the same;
//   - a function that calls itself again after a failure, with the same arguments, a count
//     stepped in them (n+1, or c+1 in a variadic list: retryCount ...int) or in what one
//     points to (opts.tries++), or a request made again from the one it was given
//     (http.NewRequest(req.Method, req.URL.String(), body)); also a function literal that
//     calls itself through the variable it is stored in (reconnect = func() { ...;
//     reconnect() }). Its attempts are bounded by the count it steps when it reads that count
//     for anything besides the step, or by a count it steps elsewhere (tries++ on a captured
//     variable, s.fails++, *budget--); a count only stepped, under a test of one that never
//     changes, bounds nothing;
//   - a function value passed to a retry helper: avast/retry-go, cenkalti/backoff v4 and v5,
//     sethvargo/go-retry, Kubernetes retry.RetryOnConflict, retry.OnError and
//     wait.ExponentialBackoff*, failsafe-go with a retry policy, gax-go Invoke, the Terraform
//     plugin SDK's Retry, RetryContext and StateChangeConf.WaitForState* (its Refresh field),
//     buildkite/roko's Retrier.Do, DoWithContext and DoFunc,
//     and this project's runtime/retry; or to an in-house helper that the model infers (a
//     parameter returning Terraform's *RetryError counts as one returning an error);
//   - the body of a range over a retry iterator (range over func): a function value
//     func(yield func(...) bool), usually returned as an iter.Seq, whose loop calls yield,
//     stops when it returns false and waits between the calls, with a backoff, jitter or a
//     bound on the number of calls, yielding attempt numbers rather than data it fetches or
//     receives (a paginator is iteration); the body must leave the loop somewhere (on
//     success).
//     Functions returning one get a fact, so ranges in other packages count too;
//   - a range over the channel of a retry timer of the package, whose body leaves on success
//     and goes round on failure: a function that makes the channel it returns and starts a
//     goroutine whose loop sends on it every round and waits between the sends (a client's
//     newRetryTimer); the loop's waits, bound and deadline are the goroutine's. A goroutine
//     that sends without waiting relays items: ranging over it is iteration;
//   - a call through a client that retries on its own: hashicorp/go-retryablehttp (and an
//     *http.Client from its StandardClient), resty with a retry count, AWS SDK for Go v2
//     service clients, stripe-go, minio-go, Cloud Storage, Azure SDK clients, an
//     *http.Client over oras-go's or this project's retrying transport; also when the client is kept in a
//     struct field or package variable that the package sets (a constructor's work is seen
//     where a method uses the field; for resty, whose setters change the client they are
//     called on, so are its calls on any load of that field, c.http.SetRetryCount(3), or on
//     the client its constructor returned, client.SetRetryCount(3)), and
//     when a retrying resty client is handed to another package's function that sends
//     requests through it (the remote model's parameter fact: api.CallCreate(c.http, req)),
//     the scope of that call;
//   - code that a framework runs again when it fails (knowledge.Frameworks; one execution is one
//     attempt, and nothing runs before the first, so these scopes have no statement to move
//     code before): a workflow activity (kind Activity: Temporal and Cadence functions and
//     exported methods of struct pointers registered with RegisterActivity*,
//     activity.Register or run with workflow.ExecuteActivity, whose RetryPolicy and
//     ScheduleToCloseTimeout give the bound and deadline where the options are in view; also
//     a function that passes its context parameter to activity.GetInfo, GetLogger,
//     RecordHeartbeat...); a message handler (kind Handler: a Pub/Sub Receive callback or a
//     function of its shape, an asynq handler, a machinery task, a function taking an SQS
//     message, a sarama ConsumerMessage or a JetStream Msg, a RabbitMQ delivery that it nacks
//     or rejects with requeue; and the body of a loop that ranges over or receives such
//     deliveries, or kafka-go's FetchMessage); a reconciler (kind Reconciler: a function of
//     controller-runtime's Reconcile signature). Each carries the framework's defaults and the
//     stable identity of what it delivers (the workflow and activity IDs, the message ID, the
//     object's UID and generation), with the variables in view to derive a key from. A
//     function that another package registers is found in its own package by its shape,
//     context or delivery, and gets a fact; one registered here but defined in
//     another package without that fact is a scope without a body at the registration.
//
// Iteration is not retry: a range over a slice, map, channel (other than a ticker's or a retry
// timer's) or
// function (other than a retry iterator), a counted loop that indexes a collection or accessor with its counter or counts up
// to a length, a loop whose counter starts elsewhere than 0 or 1 and is the call's argument
// (trying each port of a range), a loop fed by a channel or by a call that consumes a source
// (the knowledge package's table, tied to the APIs' packages: io and bufio readers, decoders,
// database rows, queue consumers, gRPC streams; never words in user code's names; or a
// function of the program that takes from one of its parameters what such a call gives:
// readFill(r, buf), a chunk of an upload, or p.parseOne(r, onEvent), the next event; a reader
// the round's own call returned is not such a source), and a loop that asks each round for what the previous round's answer
// pointed to (the next page: an offset or token from the response, formatted into the next
// request), and a loop that asks the next candidate of a supply until it runs dry (for b :=
// c.leastLoaded(); b != nil; b = c.leastLoaded(): failover across brokers), and a loop
// handed the item at a position that its own calls move (get(s.periods.End-1), with a
// rollback it calls shrinking End), all do one operation per element; but a range over a list of
// targets that sends each the same HTTP request, only its URL taken from the element (for _,
// peer := range peers { NewRequest(method, url(peer), body) ... continue on failure; return on
// success }), sends that request again, elsewhere: a retry loop marked Failover, bounded by
// the list; so is a loop that takes its target from a picker each round and, after a failure,
// asks the same picker to switch to the next one, leaving when it has none (if
// !regions.Switch() { break }), or whose picker fills the URL the request is sent to
// (urls.Peek(&u)), moves on after a failure (urls.Next()) and says when it has no more (if !ok
// { break }). A loop that never leaves on success
// (periodic work on a ticker, a server's accept loop, a heartbeat or session loop that stops
// only when its context is done or a stop signal arrives, whatever it does after an error: a
// chan struct{} that the loop's work does not produce (a field or variable that another
// method closes, whatever its name), a flag or state read on every way round; a chan struct{}
// an attempt returns (ready, err := subscribe()) says the work arrived, so leaving on it is
// leaving on success, while an acknowledgement delivered on a channel shared in a struct field
// reads as a stop;
// such a loop that tries its call again after a failure, waiting first, as a reconnect does,
// is kept apart in Result.Lifecycles, for nojitter to check that wait: on the failure's own
// side, or on every way from it back to the attempt when only failures lead there (goto
// retry, its label's timer serving every failure that jumps to it; a wait that a success
// also reaches is a schedule's period); a loop of a fixed number of rounds is not one),
// whose exits are shared by success and failure (a stream reader), or that leaves on success
// only when the call yields nothing (results, err := p.getResults(); if results == nil {
// break }: a drain), does not retry either, nor does recursion over smaller data. Going
// again when the status equals a 3xx code (resp.StatusCode == http.StatusFound) is following a
// redirect, not retrying (resp.StatusCode >= 300 still tests the outcome). Nor is going again
// on the word of a value that prepared the request and is handed the answer (auth.Authorize(c,
// req, path); resp, err := c.Do(req); if redo, _ := auth.Verify(c, resp, path); redo {
// continue }): it answers an authentication challenge, and the next request is what the
// challenge asked for. A test of a merged error (if first { err = mkBlk() } else { err =
// bput() }; if err != nil { return err }) is, on the ways from one call's failure, a test of
// that call's error. A retry in a goroutine
// that a function starts (go func() { ... }()) and does not wait for is the goroutine's, so
// the function does not retry; one it waits for (wg.Wait(), a receive from a channel the
// goroutine is handed) retries within its call.
//
// A loop's verdict may be a function of the package that it hands each failure and that
// returns nil only after it waited (if err := w.onStreamError(ctx, err, bo); err != nil {
// return err }): the handler is the loop's retry policy and its backoff; a handler that pauses
// only after a success paces a schedule. A call that reads what the user types (fmt.Scanln, a
// reader on os.Stdin, a prompt or program of the terminal libraries knowledge.ReadsTerminal
// names: huh, bubbletea, survey, promptui, x/term), or a function that asks through one (of
// the package, or of another through its waits fact), is a wait of unknown length: "Try again? (Y/n)" goes at the user's pace.
// A retry helper that asks a function-valued parameter whether to go round (if
// !retriable(err) { return err }) goes round, at each call, on what the predicate handed in
// singles out, down to the program's error variables it alone retries or turns down at once
// (errors.Is(err, ErrNotFound)).
//
// Recovery is not retry: a loop or recursion that goes round only after a step that changes
// what the next attempt sends, at most twice or only on the program's own condition or a 401
// (log in again, switch to a fallback key, ask with the access mode the answer named), fixes
// the cause before it asks again. The step is a call that may fail or leave the process, or a
// write of something the attempt reads: a field or variable on the way to its call (also
// through a small getter of the package, or in a header it sets on the request), or the next
// value of a variable it is handed (access = c.accessFor(url)). A cap chosen among constants
// (n := 3; if anonymous { n++ }), or a package variable that holds one constant, is that
// constant; a way back that skips the step only on the last round (if i < max-1 { ... }) does
// not go round; a recursion under a flag that the way to it sets (if !c.fallback.Load() {
// c.fallback.Store(true); return c.do(req) }) runs at most once, and so does one through a
// helper of the package that hands back a constant its flag turns away (if notFound &&
// createIfMissing { return w.createAndWrite(...) }, which creates the table and calls
// w.Write(..., false)): after the helper's change, a recovery. A loop whose every way back
// passes a test that the way back itself makes false, handing the attempt what it changed
// (base != host, then base = host; continue: a CNAME target, then the name), falls back once;
// a recursion after a refresh hook the program is given (a function value) succeeded recovers;
// so does a loop whose way back sets a flag (fallback = true; continue) that, in the next
// round and before the attempt, guards a change to what the attempt is handed (if fallback {
// req.Opt["syntax"] = image }): the change comes at the top of the round, not on the way back.
// A list of delays is a schedule, not items: for _, d := range delays and a count up to
// len(delays) are an attempt per delay. A loop that asks each target of a list once, from an
// offset (clients[(cur+i)%len(clients)] for as many rounds as clients), fails over. A loop
// that goes round only after the answer named a state the loop decoded (switch
// errResp.Error { case "authorization_pending": }) waits for that state; it was answered. So
// does one whose failures all leave but an error whose whole text it compares with one that
// names no transient failure (err.Error() == "CAPTCHA not match."), or an error its callee
// makes only after a call of its succeeded, never on a call's failure side (FailAnswered).
// A wait that only failures of calls staying in the process lead to (a profile that could not
// start), or that only an error of the package's own which only functions staying in the
// process make leads to (errors.Is(err, ErrRestarting) from a refused local slot), is marked
// AfterLocal, and a loop that goes round only on such errors stays in the process though its
// attempt may leave it (its own contention is not a dependency's herd). The same holds for
// errors only this machine's resources make (knowledge.LocalErrno, LocalErrorVar,
// LocalErrorTest: bind's EADDRINUSE, fs.ErrExist, os.IsNotExist(err)): a loop that moves on to the next port while the address is taken
// goes round on no other failure when every way round from a failed attempt passes a test
// that singles one out (if err == nil { return }; if errors.Is(err, syscall.EADDRINUSE) {
// continue }; return err). A test that singles
// out such an error does not go round on a done context's. A call made only after the
// attempt failed, whose own failure leaves the loop (ask for a fix to a failed local build),
// is a step, not the attempt. A
// timer wait in a select that an event the package sends can end (case <-q.notify) waits for
// work; so does a receive, or a select without a timer, on a channel the package sends on or
// closes (case <-connChanged, closed when a reconnect loop replaces the connection), where the
// loop stays: it goes round when that event comes, a wait of unknown length. A function that logs and drops a retrying call's failure keeps it (retriesFact.Kept):
// its callers' retries never see that failure.
//
// A loop leaves on success when it tests a call's error against nil, an *http.Response's
// StatusCode against a constant, or the verdict of a retry policy (a call, whatever its name,
// judging another call's error or response, such as shouldRetry(err, resp) or a CheckRetry
// field; or a boolean variable computed from such verdicts or set on the failure side of a
// test, such as again := err != nil && transient(err)): the side where the policy says no
// plays the part of success. A verdict that may keep state (a method, a closure, an
// interface's method) is a policy that may count the attempts and wait; but one asked of an
// interface value kept in an unexported field that the package fills, by default, with a type
// of its own whose method keeps no state (it reads neither its receiver nor a package
// variable) and waits for nothing (c.retryer.ShouldRetry(err), with a DefaultRetryer) can do
// neither: the default is what most users run. A range-over-func iterator's yield(item, err) is no verdict. A
// flag a function of the program returns beside its error (retry, err := c.do(req)) says
// what its returns show; where they do not, the side of the loop that waits before it goes
// round is the failure's. A helper that runs its caller's attempt as a func-typed parameter
// returning such a flag (again, err := attempt(); if !again { return err }; sleep) retries when
// a callback the package hands it asks to go round after a failure (return true, err; with a
// stop flag tested first, stop, err := f(ctx); if stop { return err }, return false, err); one
// whose callbacks ask again only with a nil error (return state == pending, nil) or with an
// error of their own words once their call worked (return false, fmt.Errorf("waiting for %d
// activities", n)), stopping on their call's failure, polls; or one that leaves on
// any error of the attempt before it waits, polls for a state. A test of the error with errors.Is or errors.As, or against a
// package's error variable (err == io.ErrUnexpectedEOF) (for r := 0;
// errors.Is(err, ErrNoResponders) && r < n; r++) decides too when the loop waits before going
// round (on its failure side, or at the top of every round before the attempt; in the loop or
// in a function of the package it calls there, such as b.wait(ctx)), and unless a
// nil test already found the error (its "no" is then another failure). An error kept in a
// variable (a named result) is the one the last store before the test put there. The success
// side must be able to leave the loop by an exit that the failure side cannot reach.
//
// A retry protects a remote dependency: Scope.Reach says whether an attempt may leave the
// process (the remote model's answer for the decisive call and every fallible call it
// repeats; a goroutine whose answer the attempt waits for is part of it). The waits between
// attempts are the scope's own (see waitsOf): a callee that does the attempt's work and sleeps
// for its own reasons waits as part of the attempt, and a timer raced against the attempt's
// result (select { case r := <-done: ...; case <-timer.C: return errTimeout }, in the loop or
// in a helper it is handed to) is a timeout, not a wait. A channel that only a goroutine
// closes (or sends on) once it has slept is a timer made by hand (go func() { time.Sleep(d);
// close(ping) }(); select { case <-ping: case <-ctx.Done(): ... }): its receive waits d.
//
// Each scope is summarised: the bound on attempts (a constant, a run-time value "variable", or
// "unbounded"), the wait between attempts ("none"; "fixed"; "backoff", growing but not
// randomised, also a delay kept in a receiver or field that the code doubles in place after
// each wait; "jittered"; "unknown" when it waits through something the model cannot see, such
// as a ticker or an opaque delay function; a delay computed by a function kept in a field or
// package variable, time.Sleep(c.cfg.RetryWait(n)), is judged by what the package itself
// stores there (the default a constructor fills in, a variable's initialiser), which is what
// most users run, and is unknown only when the package stores nothing of its own; a delay
// returned by a function of another package is judged by that function's code, exported as a
// fact, and a duration parsed from text, such as a server's Retry-After, is unknown; a number
// read from a record made before the loop, time.Duration(step.DelaySeconds) * time.Second,
// is a setting, the same every round, whatever function made the record), whether it observes
// an overall deadline ("context":
// it checks a context or passes one on to a fallible call, or uses a value made from one
// (options.WithContext(ctx) handed to the call, a backoff.New(ctx, cfg) driving the loop), and
// that context is not built only from context.Background or WithoutCancel; "elapsed": it checks the time, or its helper has a
// maximum duration; "none"), the call that decides whether to go round, and the calls it
// repeats.
//
// In-house helpers are inferred: a function that calls a func-typed parameter returning an
// error inside its own retry scope (directly or through a wrapper it hands the function to),
// or hands it to another helper, is a helper for that parameter; a call that passes nil for it
// retries nothing. It gets a
// helper fact, so calls to it in other packages are scopes too. The fact names the error
// types the helper stops on (helperFact.Stops: a type assertion or errors.As on the
// callback's error whose match side leaves its loop); a callback that hands a call's failure
// back only inside one of them (FatalError{Underlying: err}) does not retry that call, as
// with backoff.Permanent. Every function that retries,
// directly or through its callees, gets a retriesFact; so does the method of an exported
// interface the package fills with one type of its own (not a layer over another value of
// that interface), for callers in other packages. Retries in a goroutine nobody waits for
// (started by a go statement, or by a runner that starts the function value it is handed:
// startsFact) are not their starter's.
//
// To teach the model a library, add a file with its table to internal/knowledge (retrygo.go,
// retryablehttp.go, ... list it in knowledge.Libraries), and a hook in hooks.go only for what
// a table cannot say; to name an in-house helper the model cannot infer, use
//
//	-retryscope.helpers=example.com/pkg.Retry:0,example.com/pkg.Client.Do:1
//
// where the number is the index of the retried function among the arguments. The
// -retryscope.report flag reports every scope found, which is how the model is tested.
package retryscope
