// Package pagedsecrets syncs an application's secrets, page by page.
package pagedsecrets

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"nojitter/secretsapi"
)

type secretFilter func(*secretsapi.Secret) bool

func ptrTo[T any](v T) *T { return &v }

// listAll works through the pages: each round asks for the page the previous answer pointed
// to, stored in the params; an error returns. Not a retry: not reported.
func listAll(ctx context.Context, c secretsapi.ClientService, params *secretsapi.ListSecretsParams, filter secretFilter) (*secretsapi.ListSecretsOK, error) {
	if params == nil {
		return nil, fmt.Errorf("params is nil")
	}
	logger := slog.Default().With("app", params.AppName)
	logger.DebugContext(ctx, "listing secrets")

	var resp *secretsapi.ListSecretsOK
	var secrets []*secretsapi.Secret
	var err error
	for {
		resp, err = c.ListSecrets(params, nil)
		if err != nil {
			return nil, fmt.Errorf("failed to list app secrets: %w", err)
		}
		if resp == nil {
			return nil, fmt.Errorf("failed to list app secrets: response is nil")
		}
		for _, s := range resp.Payload.Secrets {
			if filter != nil && !filter(s) {
				continue
			}
			secrets = append(secrets, s)
		}
		if resp.Payload.Pagination == nil || resp.Payload.Pagination.NextPageToken == "" {
			break
		}
		params.PaginationNextPageToken = ptrTo(resp.Payload.Pagination.NextPageToken)
	}
	return &secretsapi.ListSecretsOK{
		Payload: &secretsapi.ListSecretsPayload{Secrets: secrets, Pagination: resp.Payload.Pagination},
	}, nil
}

// listRetrying asks again for the same page when a call fails, at once: reported.
func listRetrying(ctx context.Context, c secretsapi.ClientService, params *secretsapi.ListSecretsParams) ([]*secretsapi.Secret, error) {
	var secrets []*secretsapi.Secret
	for { // related "pagedsecrets.go:57: retry loop" // want `retry loop goes round without waiting and never stops, so it hammers a failing dependency; add a jittered wait and a cap`
		resp, err := c.ListSecrets(params, nil)
		if err != nil {
			if strings.Contains(err.Error(), "503") {
				continue
			}
			return nil, err
		}
		secrets = append(secrets, resp.Payload.Secrets...)
		if resp.Payload.Pagination == nil || resp.Payload.Pagination.NextPageToken == "" {
			return secrets, nil
		}
		params.PaginationNextPageToken = ptrTo(resp.Payload.Pagination.NextPageToken)
	}
}

// Sync lists the application's secrets every interval.
func Sync(ctx context.Context, c secretsapi.ClientService, app string, every time.Duration) error {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		ok, err := listAll(ctx, c, &secretsapi.ListSecretsParams{AppName: app, PaginationPageSize: ptrTo(int64(100))}, nil)
		if err != nil {
			slog.Error("sync", "err", err)
		} else {
			slog.Info("synced", "secrets", len(ok.Payload.Secrets))
		}
		if _, err := listRetrying(ctx, c, &secretsapi.ListSecretsParams{AppName: app}); err != nil {
			slog.Error("sync", "err", err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}
