// Package useboardsdk is a service's adapter for the code-review service: it builds the SDK
// with an http.Client of its own and keeps a background context for every call.
package useboardsdk

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"notimeout/boardsdk"
)

// ---- Not reported: the SDK sends through a client whose Timeout this package sets ----

// Board is the adapter the service uses.
type Board struct {
	Client *boardsdk.Client
	ctx    context.Context
	log    *slog.Logger
}

// New returns an adapter authenticated with token.
func New(token string, log *slog.Logger) (*Board, error) {
	tp := boardsdk.BasicAuthTransport{Password: strings.TrimSpace(token)}
	httpClient := tp.Client()
	httpClient.Timeout = 10 * time.Second
	sdk, err := boardsdk.NewClient(httpClient)
	if err != nil {
		return nil, fmt.Errorf("board client: %w", err)
	}
	return &Board{Client: sdk, ctx: context.Background(), log: log}, nil
}

// ChangedFiles lists the files a pull request changes, a page at a time.
func (b *Board) ChangedFiles(project, repo string, num int) ([]string, error) {
	pr, _, err := b.Client.PullRequests.Get(b.ctx, project, repo, num)
	if err != nil {
		return nil, fmt.Errorf("get pull request %d: %w", num, err)
	}
	target := strings.TrimPrefix(pr.TargetRefName, "refs/heads/")
	source := strings.TrimPrefix(pr.SourceRefName, "refs/heads/")
	const pageSize = 100
	var files []string
	for skip := 0; ; skip += pageSize {
		changes, resp, err := b.Client.Git.GetDiffs(b.ctx, project, repo, target, source, pageSize, skip)
		if err != nil {
			return nil, fmt.Errorf("diffs of %d: %w", num, err)
		}
		if resp.StatusCode != http.StatusOK {
			return nil, fmt.Errorf("diffs of %d: %s", num, resp.Status)
		}
		for _, c := range changes {
			files = append(files, strings.TrimPrefix(c.Path, "/"))
		}
		if len(changes) < pageSize {
			break
		}
	}
	b.log.Debug("changed files", "pull", num, "count", len(files))
	return files, nil
}

// Comment posts comment on a pull request.
func (b *Board) Comment(project, repo string, num int, comment string) error {
	_, err := b.Client.PullRequests.CreateComment(b.ctx, project, repo, num, &boardsdk.Comment{Content: comment})
	if err != nil {
		b.log.Warn("comment failed", "pull", num, "err", err)
		return fmt.Errorf("comment on %d: %w", num, err)
	}
	return nil
}

// ---- Not reported: the SDK sends through the client the SDK makes for it, which has no
// Timeout: one finding, in the SDK, where it is made ----

// Mirror reads pull requests of a second service.
type Mirror struct {
	sdk *boardsdk.Client
}

// NewMirror builds the SDK with the client its transport makes.
func NewMirror(token string) (*Mirror, error) {
	tp := boardsdk.BasicAuthTransport{Password: token}
	sdk, err := boardsdk.NewClient(tp.Client())
	if err != nil {
		return nil, err
	}
	return &Mirror{sdk: sdk}, nil
}

// Status returns a pull request's status.
func (m *Mirror) Status(project, repo string, num int) (string, error) {
	pr, _, err := m.sdk.PullRequests.Get(context.Background(), project, repo, num)
	if err != nil {
		return "", err
	}
	return pr.Status, nil
}

// ---- Reported: the SDK sends through a client without a Timeout that this package makes ----

// Archive reads pull requests of a third service, through a proxy.
type Archive struct {
	sdk *boardsdk.Client
}

// NewArchive builds the SDK with a client of its own that has no Timeout.
func NewArchive(token string, proxy *url.URL) (*Archive, error) {
	tp := &boardsdk.BasicAuthTransport{Password: token, Transport: &http.Transport{Proxy: http.ProxyURL(proxy)}}
	sdk, err := boardsdk.NewClient(&http.Client{Transport: tp})
	if err != nil {
		return nil, err
	}
	return &Archive{sdk: sdk}, nil
}

// Status returns a pull request's status.
func (a *Archive) Status(project, repo string, num int) (string, error) {
	pr, _, err := a.sdk.PullRequests.Get(context.Background(), project, repo, num) // related "boardsdk.go:134: PullRequestsService.Get passes its context to Client.Do" "useboardsdk.go:123: context.Background() has no deadline" // want `PullRequestsService\.Get passes a context without a deadline to Client\.Do, so a stalled server hangs this call`
	if err != nil {
		return "", err
	}
	return pr.Status, nil
}
