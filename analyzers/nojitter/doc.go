// Package nojitter defines an analyzer that reports retries that synchronise, never stop, or
// outlive their caller.
//
// # Analyzer nojitter
//
// nojitter: report retries without jitter, without an attempt cap, or without a deadline
//
// Clients that fail together retry together. When the wait between attempts is fixed, or
// grows without a random part, every client that saw the same failure comes back at the same
// moment, in waves that keep a recovering dependency down. Full jitter spreads them out:
// sleep = random(0, min(cap, base * 2^attempt)). A retry that nothing bounds keeps calling a
// dependency that is down, for ever; one that ignores its caller's context keeps going after
// the caller has given up.
//
// For every retry scope (see the retryscope analyzer) it reports, each as its own diagnostic:
//
//   - no jitter: the wait between attempts is fixed or an exponential backoff without a
//     random part (time.Sleep of a constant, a timer reset to base << attempt, avast
//     retry-go's FixedDelay or BackOffDelay alone, a cenkalti ExponentialBackOff whose
//     RandomizationFactor is 0, a sethvargo backoff not wrapped in WithJitter or
//     WithFullJitter, a Kubernetes wait.Backoff without Jitter, go-retryablehttp's
//     DefaultBackoff), or a loop that goes round without waiting at all, including one that
//     waits only when a caller sets an option that is nil by default (if c.retryBackoff !=
//     nil { sleep(c.retryBackoff(i)) }, the field filled only from the caller's options);
//   - no attempt cap: nothing bounds the attempts, neither a count nor a time limit nor a
//     context (for {} without a counter, retry-go Attempts(0), failsafe-go WithMaxRetries(-1));
//     a count may be kept by the verdict the loop asks (retry, err := s.shouldRetry(thread,
//     err), which steps s.attempts[thread] and answers "stop" once it passes a limit);
//     a retry helper that its library's settings let go on for ever (retry-go Attempts(0)
//     or UntilSucceeded, a sethvargo backoff without WithMaxRetries or WithMaxDuration) is
//     reported even when it is given a context, unless that context is given a deadline in
//     reach: a context ends it only if its creator set one; a loop that hands its context to
//     the attempt but leaves on no failure goes round for ever once that context is done
//     (every attempt then fails at once), unless the attempt returns nil then (a monitor
//     whose case <-ctx.Done() returns nil);
//   - no deadline: a context is at hand in the function, but the retry neither checks it nor
//     passes it on, nor limits its elapsed time, so its retries outlive the caller. A
//     self-retrying client observes the context of each request it sends: a retryablehttp
//     request made without one (NewRequest, Client.Get) is reported at the call.
//
// A long-running loop that serves or consumes until it is stopped and connects or subscribes
// again after a failure (retryscope's Result.Lifecycles) is checked for the first only: a
// fixed wait before connecting again brings every client of a restarted server back at once;
// running until stopped is its design, so it has no cap or deadline to report. One that dials
// (or opens a stream) again at once when the dial fails, with no wait on that way round nor
// on every round, spins against the dependency while it is down: reported at the loop, unless
// a call in it retries with waits of its own or the peer is on this machine. The same holds
// for any request to a remote dependency that such a loop makes round after round and goes
// round on at once whatever the error (a long poll, whose answers pace the loop while the
// server is up but whose failures do not while it is down), unless the call waits on its own
// (a backoff, a rate limiter in a callee) or the loop waits for an event on the way back to
// it (a receive, a select without default, a send, sync.Cond or WaitGroup.Wait, in its code
// or in a function of the package it calls there: a flusher that writes when asked to).
//
// A message consumer that hands a failed message back to be delivered again at once retries
// through the broker with no pause: a JetStream Nak (NakWithDelay waits), a RabbitMQ Nack or
// Reject with requeue set to the constant true (on the delivery or the channel). It is
// reported at the call when it runs only after the handling failed (on the non-nil side of an
// error test, or on the side of a test whose other side acks or terminates the message),
// unless the context's end leads there (a consumer that stops hands its messages back for
// another to take) or a wait comes between the failure and the call. A requeue flag that is
// not a constant (!d.Redelivered: once) is not reported.
//
// The wait between attempts is the scope's own: a sleep or timer in the loop, or a call of a
// function that sleeps the duration it is given, a backoff computed from the attempt number,
// or nothing but a wait. A callee that does the attempt's work and sleeps for its own reasons
// (a rate-limit wait, a readiness poll, a settle delay) waits as part of the attempt, and
// time.AfterFunc schedules work without waiting. A helper of the package that chooses its
// wait's length itself (an error handler that backs off, then says "go on") and that several
// scopes call is one finding, at the first scope's call, with the others as related positions;
// a helper each scope hands its own length (sleep(ctx, backoff(n))) is one finding per scope. A retry protects a remote dependency: a scope
// whose attempts stay in the process or on this machine (a lock file, a local listener, an OS
// call; see the remote analyzer's Reach) is not reported, nor is a wait that only local
// failures lead to (a profiler that could not start because another profile runs), whatever
// else the loop calls. What the loop does once the attempt has worked, or once it failed
// before going round, and does not retry when it fails (a refusal written to an accepted
// connection, a remote fix asked for a local build that failed), is not part of the attempt.
// A generic retry helper, whose attempt is a callback of a signature that names no work
// (RunWithRetry(attempts, wait, fn func() error)), retries whatever its callers hand it: its
// wait is reported in the helper when a call in its package hands it work that reaches a
// remote call, and otherwise at the first call in each other package of the module that does
// (helperlib.Do waits a fixed delay between attempts), never where nobody hands it any.
// A timer wait that an event can cut short (select { case <-ticker.C: case <-q.notify: })
// waits for work, not between attempts.
//
// A hand-written loop is reported at its first wait without jitter (one finding per scope,
// its other such waits among the related positions) and at the loop for the other two; a library call at the option that configures it, or at the call when the
// library's default is to blame; a self-retrying client once, where it is made or configured.
// A helper the model infers (an in-house Retry(fn)) is reported inside the helper, not at its
// call sites, unless the helper is in another module (a dependency's Retry(10, 10*time.Second,
// fn)): then its fixed wait is reported at the call, the only line the module can change. A
// retry iterator is reported where its loop is written.
//
// Not reported: what the model cannot tell (a wait computed by a function it cannot see, a
// context it cannot follow), polls that wait for a condition rather than retry a failure
// (their interval need not be jittered), among them a hand-written loop that goes round only
// on a 404, 401 or 409 answer and that time ends rather than a count (a device login polling
// while the server answers "pending"; a counted loop on 409 contends with other clients and
// is reported), the waits of a library that no setting can
// randomise (the Terraform SDK's resource.Retry: its policy), a failover that goes round at
// once to another target (each round sends to a backend it picks anew, a failure marks the
// one it was sent to, and there are as many rounds as backends; or a round-robin picker
// hands out the next address each round, and the loop counts the addresses; or an iterator
// fills the URL each round, a failure moves it on, and its answer ends the loop; or every way
// round takes the target anew from a picker, server = ups.SwitchIf(server)), a periodic loop
// on a channel of times made outside it (another package's ticker) whose successes go round
// too, a loop that
// follows a redirect (a call in it sets the URL or Host of the request it sends) or answers an
// authentication challenge (the authenticator that prepared the request is handed the answer and
// says to send again), a loop of a few rounds (a constant cap) that goes round only on an answer
// the server gave (err.Error() == "CAPTCHA not match."; see retryscope's Answered) or only on
// an error variable of the module from a write of what the round read, whose reading fails out
// of the loop (a lost compare-and-swap: read, change, AtomicPut, err == ErrKeyModified), a retry
// library's callback that hands its helper back only a "not found" answer and marks every other
// error permanent (if apierrors.IsNotFound(err) { return err }: it waits for the object to
// appear), a wait as
// long as the server said (a parsed Retry-After, a rate-limit error's RetryAfter field, merged
// with no other delay; merged with a backoff of the program's own, as in if d == 0 { d =
// base * 2^n }, the backoff is what failures without a word wait, and is judged), a failure's
// wait that lasts the loop's own period (a heartbeat that waits its period after a failed beat
// as after a good one), a retry sent each round to a server picked at random from a list (it
// spreads the attempts), retries of work on this machine (a program run through a seam that
// hands back the *exec.Cmd, a network interface lookup), a retryablehttp client that makes one
// attempt (a Client{} literal without RetryMax), and this project's runtime/retry, which
// jitters, caps and observes the context by default. A loop that walks something (the fields
// of an answer), leaving after a success only with an error of its own words, and a helper
// whose callbacks all ignore the error they are handed (a poll for pod addresses), retry
// nothing.
//
// The suggested fix, where a hand loop sleeps a fixed or growing duration (time.Sleep(d),
// time.After(d), time.NewTimer(d), t.Reset(d)), gives the wait full jitter, a random duration
// in [0, d). It builds in the module as it is: where the module does not require this
// project's runtime, with math/rand/v2 (rand.N for a positive constant, which panics on zero,
// so the float form for a value that may be zero):
//
//	time.Sleep(rand.N(2 * time.Second))
//	time.Sleep(time.Duration(rand.Float64() * float64(backoff)))
//
// and where it does, with the runtime's time.Sleep(retry.FullJitter(backoff)). Imports are
// added under a name that nothing hides at the wait. Where one library option or field
// turns jitter off, it turns it on (retry-go DelayType(CombineDelay(d, RandomDelay)), cenkalti
// RandomizationFactor: backoff.DefaultRandomizationFactor, sethvargo WithFullJitter, a
// wait.Backoff's Jitter: 1.0, retryablehttp's LinearJitterBackoff). Cap and deadline findings
// have no automatic fix; the message says what to add. Nor has a wait that is, on some
// failures, the server's word (see retryscope's Sleep.Told): jitter over the whole would wait
// less than the server asked, and belongs in the program's own part.
package nojitter
