// Package aws is a stub of github.com/aws/aws-sdk-go/aws (v1.55, public signatures only).
package aws

import (
	"context"
	"net/http"
	"time"
)

type Context = context.Context

type Config struct {
	Region     *string
	MaxRetries *int
	HTTPClient *http.Client
}

func NewConfig() *Config                                     { return &Config{} }
func (c *Config) WithRegion(region string) *Config           { return c }
func (c *Config) WithMaxRetries(max int) *Config             { return c }
func (c *Config) WithHTTPClient(client *http.Client) *Config { return c }

func String(v string) *string         { return &v }
func Int64(v int64) *int64            { return &v }
func Time(v time.Time) *time.Time     { return &v }
func Float64Value(v *float64) float64 { return 0 }
