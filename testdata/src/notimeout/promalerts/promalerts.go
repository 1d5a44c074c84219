// Package promalerts blocks a node's maintenance while Prometheus reports alerts that matter.
package promalerts

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	papi "github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
)

type Blocker struct {
	client  papi.Client
	ignore  *regexp.Regexp
	log     *slog.Logger
	initErr error
}

func New(address string, ignore *regexp.Regexp, log *slog.Logger) *Blocker {
	c, err := papi.NewClient(papi.Config{Address: address})
	return &Blocker{client: c, ignore: ignore, log: log, initErr: err}
}

func (b *Blocker) matching(v v1.Value) []string {
	var names []string
	for _, line := range strings.Split(v.String(), "\n") {
		if name, _, ok := strings.Cut(line, "{"); ok && !b.ignore.MatchString(name) {
			names = append(names, name)
		}
	}
	return names
}

// ---- Reported: a query whose context nothing ends ----

// Blocked asks Prometheus for firing alerts. A stalled Prometheus holds the maintenance
// loop that asks.
func (b *Blocker) Blocked() (bool, error) {
	if b.initErr != nil {
		return true, b.initErr
	}
	api := v1.NewAPI(b.client)
	v, warnings, err := api.Query(context.Background(), `ALERTS{alertstate="firing"}`, time.Now()) // related "promalerts.go:47: context.Background() has no deadline" // want `API\.Query's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
	if err != nil {
		return true, fmt.Errorf("query alerts: %w", err)
	}
	for _, w := range warnings {
		b.log.Warn("prometheus warning", "warning", w)
	}
	names := b.matching(v)
	if len(names) > 0 {
		b.log.Info("maintenance blocked", "alerts", names)
	}
	return len(names) > 0, nil
}

// ---- Not reported: the query has a deadline ----

// BlockedWithin asks the same question, giving up after timeout.
func (b *Blocker) BlockedWithin(timeout time.Duration) (bool, error) {
	if b.initErr != nil {
		return true, b.initErr
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	v, _, err := v1.NewAPI(b.client).Query(ctx, `ALERTS{alertstate="firing"}`, time.Now())
	if err != nil {
		return true, fmt.Errorf("query alerts: %w", err)
	}
	return len(b.matching(v)) > 0, nil
}

// RecentAlerts lists alerts with the caller's context: its callers decide.
func (b *Blocker) RecentAlerts(ctx context.Context) ([]v1.Alert, error) {
	res, err := v1.NewAPI(b.client).Alerts(ctx)
	if err != nil {
		return nil, err
	}
	return res.Alerts, nil
}
