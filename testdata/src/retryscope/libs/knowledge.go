package libs

import (
	"context"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	backoff4 "github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	sethretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

// Library settings as the libraries define them (see libraries.go for the sources).

func knowledgeRetryGo(ctx context.Context, n uint) { // want knowledgeRetryGo:`retries: retry callback`
	_ = retrygo.Do(call, retrygo.DelayType(retrygo.BackOffDelay))                                                                // want `attempts=10 wait=backoff deadline=none`
	_ = retrygo.Do(call, retrygo.DelayType(retrygo.CombineDelay(retrygo.FixedDelay, retrygo.RandomDelay)), retrygo.Context(ctx)) // want `attempts=10 wait=jittered deadline=context`
	_ = retrygo.Do(call, retrygo.Attempts(n))                                                                                    // want `attempts=variable wait=jittered deadline=none`
}

func knowledgeCenkalti(ctx context.Context) { // want knowledgeCenkalti:`retries: retry callback`
	// A literal: no randomization and no elapsed limit unless its fields say so.
	_ = backoff4.Retry(call, &backoff4.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2})                                         // want `attempts=unbounded wait=backoff deadline=none`
	_ = backoff4.Retry(call, &backoff4.ExponentialBackOff{InitialInterval: time.Second, RandomizationFactor: 0.5, MaxElapsedTime: time.Minute}) // want `attempts=unbounded wait=jittered deadline=elapsed`
	_ = backoff4.Retry(call, backoff4.NewExponentialBackOff(backoff4.WithRandomizationFactor(0)))                                               // want `attempts=unbounded wait=backoff deadline=elapsed`
	_ = backoff4.Retry(call, backoff4.NewExponentialBackOff(backoff4.WithMaxElapsedTime(0)))                                                    // want `attempts=unbounded wait=jittered deadline=none`
	_ = backoff4.Retry(call, backoff4.WithContext(backoff4.WithMaxRetries(backoff4.NewExponentialBackOff(), 2), context.Background()))          // want `attempts=3 wait=jittered deadline=elapsed`
	b := backoff4.NewExponentialBackOff()
	b.RandomizationFactor = 0
	_ = backoff4.Retry(call, b)                                                                                                                  // want `attempts=unbounded wait=backoff deadline=elapsed`
	_ = backoff4.Retry(call, &backoff4.StopBackOff{})                                                                                            // want `attempts=1 wait=none`
	_, _ = backoff5.Retry(ctx, func() (int, error) { return 0, nil }, backoff5.WithMaxTries(0))                                                  // want `attempts=unbounded wait=jittered deadline=context`
	_, _ = backoff5.Retry(context.Background(), func() (int, error) { return 0, nil }, backoff5.WithMaxElapsedTime(0), backoff5.WithMaxTries(3)) // want `attempts=3 wait=jittered deadline=none`
	_, _ = backoff5.Retry(context.Background(), func() (int, error) { return 0, nil })                                                           // want `attempts=unbounded wait=jittered deadline=elapsed`
}

func knowledgeSethvargo(ctx context.Context) { // want knowledgeSethvargo:`retries: retry callback`
	_ = sethretry.Do(ctx, sethretry.WithFullJitter(sethretry.NewExponential(time.Second)), callCtx)                             // want `attempts=unbounded wait=jittered`
	_ = sethretry.Do(ctx, sethretry.NewFibonacci(time.Second), callCtx)                                                         // want `attempts=unbounded wait=backoff deadline=context`
	_ = sethretry.Do(context.Background(), sethretry.WithMaxDuration(time.Minute, sethretry.NewConstant(time.Second)), callCtx) // want `attempts=unbounded wait=fixed deadline=elapsed`
	_ = sethretry.Exponential(context.TODO(), time.Second, callCtx)                                                             // want `attempts=unbounded wait=backoff deadline=none`
}

func knowledgeKubernetes(ctx context.Context) { // want knowledgeKubernetes:`retries: retry callback`
	_ = k8sretry.RetryOnConflict(k8sretry.DefaultBackoff, call)                                                                      // want `attempts=4 wait=jittered deadline=none`
	_ = k8sretry.RetryOnConflict(wait.Backoff{Duration: time.Second}, call)                                                          // want `attempts=0 wait=fixed`
	_ = wait.ExponentialBackoff(wait.Backoff{Steps: 5, Duration: time.Second, Factor: 2}, func() (bool, error) { return true, nil }) // want `attempts=5 wait=backoff deadline=none`
	_ = wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(context.Context) (bool, error) { return true, nil })  // want `attempts=unbounded wait=fixed deadline=context`
}

func knowledgeFailsafe() { // want knowledgeFailsafe:`retries: retry callback`
	rp := retrypolicy.NewBuilder[any]().WithBackoff(time.Second, time.Minute).WithJitter(time.Second).WithMaxAttempts(0).Build()
	_ = failsafe.Run(call, rp) // want `attempts=unbounded wait=jittered deadline=none`
	rp2 := retrypolicy.NewBuilder[any]().WithMaxRetries(-1).WithMaxDuration(time.Minute).Build()
	_ = failsafe.Run(call, rp2) // want `attempts=unbounded wait=none deadline=elapsed`
}
