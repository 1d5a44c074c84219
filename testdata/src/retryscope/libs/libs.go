package libs

import (
	"context"
	"errors"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/circuitbreaker"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	"github.com/go-resty/resty/v2"
	gax "github.com/googleapis/gax-go/v2"
	"github.com/hashicorp/go-retryablehttp"
	idemretry "github.com/idemlint/idemlint/runtime/retry"
	"github.com/idemlint/idemlint/runtime/retry/retryhttp"
	sethretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
)

func call() error                       { return nil }
func callCtx(ctx context.Context) error { return nil }

func retryGo(ctx context.Context) { // want retryGo:`retries: retry callback \(github.com/avast/retry-go/v4.Do\) at libs.go:32, attempts=10`
	_ = retrygo.Do(func() error { return call() })                                     // want `retry callback \(github.com/avast/retry-go/v4.Do\): attempts=10 wait=jittered deadline=none`
	_ = retrygo.Do(call, retrygo.Attempts(3), retrygo.DelayType(retrygo.FixedDelay))   // want `retry callback \(github.com/avast/retry-go/v4.Do\): attempts=3 wait=fixed deadline=none`
	_ = retrygo.Do(call, retrygo.Attempts(0), retrygo.DelayType(retrygo.BackOffDelay)) // want `attempts=unbounded wait=backoff deadline=none`
	_ = retrygo.Do(call, retrygo.UntilSucceeded(), retrygo.Context(ctx),               // want `attempts=unbounded wait=jittered deadline=context`
		retrygo.DelayType(retrygo.CombineDelay(retrygo.BackOffDelay, retrygo.RandomDelay)))
	_ = retrygo.Do(call, retrygo.Context(context.Background()))                           // want `attempts=10 wait=jittered deadline=none`
	_, _ = retrygo.DoWithData(func() (int, error) { return 1, nil }, retrygo.Attempts(5)) // want `retry callback \(github.com/avast/retry-go/v4.DoWithData\): attempts=5 wait=jittered`
}

func cenkalti(ctx context.Context) { // want cenkalti:`retries: retry callback`
	_ = backoff4.Retry(call, backoff4.NewExponentialBackOff())                                     // want `retry callback \(github.com/cenkalti/backoff/v4.Retry\): attempts=unbounded wait=jittered deadline=elapsed`
	_ = backoff4.Retry(call, backoff4.WithMaxRetries(backoff4.NewConstantBackOff(time.Second), 3)) // want `attempts=4 wait=fixed deadline=none`
	b := backoff4.NewExponentialBackOff()
	b.RandomizationFactor = 0
	b.MaxElapsedTime = 0
	_ = backoff4.RetryNotify(call, b, nil)                                                                                                                      // want `attempts=unbounded wait=backoff deadline=none`
	_ = backoff4.Retry(call, backoff4.WithContext(&backoff4.ZeroBackOff{}, ctx))                                                                                // want `attempts=unbounded wait=none deadline=context`
	_, _ = backoff5.Retry(ctx, func() (int, error) { return 0, nil })                                                                                           // want `retry callback \(github.com/cenkalti/backoff/v5.Retry\): attempts=unbounded wait=jittered deadline=context`
	_, _ = backoff5.Retry(ctx, func() (int, error) { return 0, nil }, backoff5.WithMaxTries(5), backoff5.WithBackOff(backoff5.NewConstantBackOff(time.Second))) // want `attempts=5 wait=fixed deadline=context`
}

func sethvargo(ctx context.Context) { // want sethvargo:`retries: retry callback`
	_ = sethretry.Do(ctx, sethretry.WithMaxRetries(3, sethretry.NewExponential(time.Second)), callCtx)         // want `retry callback \(github.com/sethvargo/go-retry.Do\): attempts=4 wait=backoff deadline=context`
	_ = sethretry.Do(ctx, sethretry.WithJitter(time.Millisecond, sethretry.NewConstant(time.Second)), callCtx) // want `attempts=unbounded wait=jittered deadline=context`
	_ = sethretry.Constant(ctx, time.Second, callCtx)                                                          // want `retry callback \(github.com/sethvargo/go-retry.Constant\): attempts=unbounded wait=fixed deadline=context`
}

func kubernetes(ctx context.Context) { // want kubernetes:`retries: retry callback`
	_ = k8sretry.RetryOnConflict(k8sretry.DefaultRetry, call)                                                                                             // want `retry callback \(k8s.io/client-go/util/retry.RetryOnConflict\): attempts=5 wait=jittered deadline=none`
	_ = k8sretry.OnError(wait.Backoff{Steps: 3, Duration: time.Second}, func(error) bool { return true }, call)                                           // want `attempts=3 wait=fixed deadline=none`
	_ = wait.ExponentialBackoffWithContext(ctx, wait.Backoff{Steps: 6, Factor: 2, Jitter: 0.5}, func(context.Context) (bool, error) { return true, nil }) // want `retry callback \(k8s.io/apimachinery/pkg/util/wait.ExponentialBackoffWithContext\): attempts=6 wait=jittered deadline=context`
}

func failsafeGo() { // want failsafeGo:`retries: retry callback`
	rp := retrypolicy.NewBuilder[any]().WithMaxRetries(4).WithBackoff(time.Second, time.Minute).Build()
	_ = failsafe.Run(call, rp)           // want `retry callback \(github.com/failsafe-go/failsafe-go.Run\): attempts=5 wait=backoff deadline=none`
	_ = failsafe.With[any](rp).Run(call) // want `retry callback \(github.com/failsafe-go/failsafe-go.Executor.Run\): attempts=5 wait=backoff`
	// A circuit breaker alone does not retry.
	_ = failsafe.Run(call, circuitbreaker.WithDefaults[any]())
}

func gaxInvoke(ctx context.Context, opts []gax.CallOption) { // want gaxInvoke:`retries: retry callback`
	_ = gax.Invoke(ctx, func(ctx context.Context, _ gax.CallSettings) error { return callCtx(ctx) }, opts...) // want `retry callback \(github.com/googleapis/gax-go/v2.Invoke\): attempts=unbounded wait=jittered deadline=context`
	// No options: one call.
	_ = gax.Invoke(ctx, func(ctx context.Context, _ gax.CallSettings) error { return callCtx(ctx) })
}

func runtimeRetry(ctx context.Context) { // want runtimeRetry:`retries: retry callback`
	_ = idemretry.Do(ctx, idemretry.Policy{}, func(ctx context.Context, a idemretry.Attempt) error { return callCtx(ctx) })               // want `retry callback \(github.com/idemlint/idemlint/runtime/retry.Do\): attempts=4 wait=jittered deadline=context`
	_ = idemretry.Do(ctx, idemretry.Policy{MaxAttempts: 6}, func(ctx context.Context, a idemretry.Attempt) error { return callCtx(ctx) }) // want `attempts=6 wait=jittered deadline=context`
}

func clients(ctx context.Context, req *retryablehttp.Request) { // want clients:`retries: self-retrying client call`
	c := retryablehttp.NewClient()
	c.RetryMax = 2
	_, _ = c.Do(req)                               // want `self-retrying client call \(github.com/hashicorp/go-retryablehttp.Client.Do\): attempts=3 wait=backoff deadline=unknown`
	_, _ = retryablehttp.Get("http://example.com") // want `attempts=5 wait=backoff`
	std := retryablehttp.NewClient().StandardClient()
	_, _ = std.Get("http://example.com") // want `self-retrying client call \(net/http.Client.Get\): attempts=5 wait=backoff`
	_, _ = http.Get("http://example.com")

	r := resty.New().SetRetryCount(3)
	_, _ = r.R().Post("http://example.com")           // want `self-retrying client call \(github.com/go-resty/resty/v2.Request.Post\): attempts=4 wait=jittered`
	_, _ = resty.New().R().Post("http://example.com") // no retry count: no retries

	e := ec2.NewFromConfig(aws.Config{})
	_, _ = e.RunInstances(ctx, &ec2.RunInstancesInput{}) // want `self-retrying client call \(github.com/aws/aws-sdk-go-v2/service/ec2.Client.RunInstances\): attempts=3 wait=jittered deadline=context`
}

var errNope = errors.New("nope")

func retryTransport(req *http.Request) { // want retryTransport:`retries: self-retrying client call`
	c := &http.Client{Transport: &retryhttp.Transport{Policy: idemretry.Policy{MaxAttempts: 3}}}
	_, _ = c.Do(req) // want `self-retrying client call \(net/http.Client.Do\): attempts=3 wait=jittered deadline=context`
	plain := &http.Client{}
	_, _ = plain.Do(req)
}

// The client's settings reach calls made in closures.
func inClosure(req *retryablehttp.Request) { // want inClosure:`retries: self-retrying client call`
	c := retryablehttp.NewClient()
	c.RetryMax = 7
	send := func() {
		_, _ = c.Do(req) // want `self-retrying client call \(github.com/hashicorp/go-retryablehttp.Client.Do\): attempts=8`
	}
	send()
}

// A goroutine's retries are its own: the function that starts it neither waits for it nor
// sees how it ended, so it does not retry.
func inGoroutine(req *retryablehttp.Request) {
	c := retryablehttp.NewClient()
	c.RetryMax = 7
	go func() {
		_, _ = c.Do(req) // want `self-retrying client call \(github.com/hashicorp/go-retryablehttp.Client.Do\): attempts=8`
	}()
	go c.Do(req) // want `self-retrying client call \(github.com/hashicorp/go-retryablehttp.Client.Do\): attempts=8`
}
