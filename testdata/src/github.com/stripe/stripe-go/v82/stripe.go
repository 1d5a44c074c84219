// Package stripe is a stub of github.com/stripe/stripe-go/v82.
package stripe

import "context"

type Params struct {
	Context        context.Context `form:"-"`
	IdempotencyKey *string         `form:"-"`
}

func (p *Params) SetIdempotencyKey(val string) { p.IdempotencyKey = &val }

type PaymentIntentParams struct {
	Params   `form:"*"`
	Amount   *int64
	Currency *string
}

type PaymentIntent struct{ ID string }

func String(v string) *string { return &v }
func Int64(v int64) *int64    { return &v }
