// Package v1 is a stub of github.com/prometheus/client_golang/api/prometheus/v1 for tests.
package v1

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/api"
)

type Warnings []string

type Value interface{ String() string }

type Range struct {
	Start, End time.Time
	Step       time.Duration
}

type Alert struct {
	Labels map[string]string
	State  string
}

type AlertsResult struct{ Alerts []Alert }

type Option func(*struct{})

// API is the Prometheus HTTP API.
type API interface {
	Alerts(ctx context.Context) (AlertsResult, error)
	Query(ctx context.Context, query string, ts time.Time, opts ...Option) (Value, Warnings, error)
	QueryRange(ctx context.Context, query string, r Range, opts ...Option) (Value, Warnings, error)
	LabelValues(ctx context.Context, label string, matches []string, startTime, endTime time.Time, opts ...Option) ([]string, Warnings, error)
}

func NewAPI(c api.Client) API { return nil }
