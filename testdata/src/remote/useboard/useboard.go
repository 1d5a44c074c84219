// Package useboard keeps an SDK client, built with an http.Client of its own, in a struct
// field: the SDK's calls are bounded by that client's Timeout when it has one.
package useboard

import (
	"context"
	"net/http"
	"time"

	"notimeout/boardsdk"
)

type adapter struct {
	sdk *boardsdk.Client
	ctx context.Context
}

func newTimed(tp *boardsdk.BasicAuthTransport) (*adapter, error) {
	hc := tp.Client()
	hc.Timeout = 10 * time.Second
	sdk, err := boardsdk.NewClient(hc)
	if err != nil {
		return nil, err
	}
	return &adapter{sdk: sdk, ctx: context.Background()}, nil
}

func (a *adapter) status(project, repo string, id int) (string, error) {
	pr, _, err := a.sdk.PullRequests.Get(a.ctx, project, repo, id) // want `HTTP call http.Client.Do via PullRequestsService.Get: bounded by the client it was built with`
	if err != nil {
		return "", err
	}
	return pr.Status, nil
}

type untimed struct{ sdk *boardsdk.Client }

func newUntimed() (*untimed, error) {
	sdk, err := boardsdk.NewClient(&http.Client{Transport: http.DefaultTransport})
	return &untimed{sdk: sdk}, err
}

func (u *untimed) status(project, repo string, id int) (string, error) {
	pr, _, err := u.sdk.PullRequests.Get(context.Background(), project, repo, id) // want `HTTP call http.Client.Do via PullRequestsService.Get: unbounded \(context from context.Background\(\)\)`
	if err != nil {
		return "", err
	}
	return pr.Status, nil
}
