// Package runtime is a stub of github.com/Azure/azure-sdk-for-go/sdk/azcore/runtime.
package runtime

import "context"

type Pager[T any] struct{}

func (p *Pager[T]) More() bool { return false }

func (p *Pager[T]) NextPage(ctx context.Context) (T, error) {
	var zero T
	return zero, nil
}

type Poller[T any] struct{}

type PollUntilDoneOptions struct{}

func (p *Poller[T]) PollUntilDone(ctx context.Context, options *PollUntilDoneOptions) (T, error) {
	var zero T
	return zero, nil
}
