// Package service is the payments example: an HTTP service whose payment creation is made
// idempotent by runtime/idempotency, with a recovery point between its two steps (record the
// payment, then charge the provider with a derived key).
package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

// Payment is a payment as the API returns it.
type Payment struct {
	ID       string `json:"id"`
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	Customer string `json:"customer"`
	Status   string `json:"status"` // "pending" once recorded, "succeeded" once charged
	ChargeID string `json:"charge_id,omitempty"`
}

// NewPayment is the body of POST /v1/payments.
type NewPayment struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	Customer string `json:"customer"`
}

// Charge is a charge made at the provider.
type Charge struct {
	ID       string `json:"id"`
	Key      string `json:"key"` // the idempotency key the provider deduplicated on
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
	Requests int    `json:"requests"` // how many charge requests carried this key
}

// Repo stores payments. Create and MarkSucceeded run inside idempotency steps; a transactional
// implementation writes through the step's transaction.
type Repo interface {
	Create(ctx context.Context, tenant string, p Payment) (Payment, error)
	MarkSucceeded(ctx context.Context, tenant, id, chargeID string) (Payment, error)
	Get(ctx context.Context, tenant, id string) (Payment, error)
	List(ctx context.Context, tenant string) ([]Payment, error)
}

// Provider is the downstream payment provider: it deduplicates charges by idempotency key, so a
// charge repeated with the same key is made (and counted) once.
type Provider interface {
	Charge(ctx context.Context, key string, amount int64, currency string) (Charge, error)
	Charges(ctx context.Context) ([]Charge, error)
}

// ErrNotFound is returned by Repo.Get.
var ErrNotFound = errors.New("payment not found")

// Config configures the service.
type Config struct {
	Store    idempotency.Store
	Repo     Repo
	Provider Provider
	// Lease of a request's key (see idempotency.Runner.Lease).
	Lease time.Duration
	// Retention of keys (see idempotency.Runner.Retention).
	Retention time.Duration
	// ChargeDelay is slept after the payment is recorded and before the charge, so that tests
	// can interrupt a request in the middle.
	ChargeDelay time.Duration
	// AfterCharge, if set, is called right after the provider accepted a charge and before the
	// step is recorded (the -crash-after-charge flag kills the process there).
	AfterCharge func()
	Logger      *slog.Logger
}

// Service serves the payments API.
type Service struct {
	cfg Config
	log *slog.Logger
}

// New returns the service.
func New(cfg Config) *Service {
	s := &Service{cfg: cfg, log: cfg.Logger}
	if s.log == nil {
		s.log = slog.Default()
	}
	return s
}

var tenantRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// tenant returns the request's tenant, from X-Tenant-ID. (A real service would take it from the
// authenticated principal.)
func tenant(r *http.Request) (string, error) {
	t := r.Header.Get("X-Tenant-ID")
	switch {
	case t == "":
		return "", errors.New("the X-Tenant-ID header is required")
	case !tenantRE.MatchString(t):
		return "", errors.New("X-Tenant-ID must be 1 to 64 letters, digits, '-' or '_'")
	}
	return t, nil
}

// Handler returns the service's routes.
func (s *Service) Handler() http.Handler {
	keyed := idempotency.Middleware(idempotency.Config{
		Runner: idempotency.Runner{
			Store:     s.cfg.Store,
			Lease:     s.cfg.Lease,
			Retention: s.cfg.Retention,
			Logger:    s.log,
		},
		Tenant: tenant,
	})
	mux := http.NewServeMux()
	mux.Handle("POST /v1/payments", keyed(http.HandlerFunc(s.createPayment)))
	mux.HandleFunc("GET /v1/payments", s.listPayments)
	mux.HandleFunc("GET /v1/payments/{id}", s.getPayment)
	mux.HandleFunc("GET /v1/provider/charges", s.listCharges)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	return mux
}

var currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)

func (s *Service) createPayment(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	tenant, _ := tenant(r) // checked by the middleware
	var in NewPayment
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		problem(w, http.StatusBadRequest, "invalid_body", "the body must be a JSON object {amount, currency, customer}: "+err.Error())
		return
	}
	switch {
	case in.Amount <= 0:
		problem(w, http.StatusBadRequest, "invalid_amount", "amount must be a positive number of minor units")
		return
	case !currencyRE.MatchString(in.Currency):
		problem(w, http.StatusBadRequest, "invalid_currency", "currency must be an ISO 4217 code such as EUR")
		return
	case in.Customer == "" || len(in.Customer) > 64:
		problem(w, http.StatusBadRequest, "invalid_customer", "customer must be 1 to 64 characters")
		return
	}

	// Step 1: record the payment (pending). A retry after this point reuses the recorded payment.
	p, err := idempotency.Step(ctx, "record", func(ctx context.Context) (Payment, error) {
		return s.cfg.Repo.Create(ctx, tenant, Payment{
			ID: newID("pay_"), Amount: in.Amount, Currency: in.Currency, Customer: in.Customer, Status: "pending",
		})
	})
	if err != nil {
		s.unavailable(w, r, "recording the payment", err)
		return
	}

	if d := s.cfg.ChargeDelay; d > 0 {
		select {
		case <-time.After(d):
		case <-ctx.Done():
			s.unavailable(w, r, "waiting to charge", context.Cause(ctx))
			return
		}
	}

	// Step 2: charge the provider with a key derived from the request's, then mark the payment
	// succeeded. A retry repeats the charge with the same derived key: the provider charges once.
	p, err = idempotency.Step(ctx, "charge", func(ctx context.Context) (Payment, error) {
		key, err := idempotency.DerivedKey(ctx, "charge")
		if err != nil {
			return Payment{}, err
		}
		ch, err := s.cfg.Provider.Charge(ctx, key, p.Amount, p.Currency)
		if err != nil {
			return Payment{}, fmt.Errorf("charging: %w", err)
		}
		if s.cfg.AfterCharge != nil {
			s.cfg.AfterCharge()
		}
		return s.cfg.Repo.MarkSucceeded(ctx, tenant, p.ID, ch.ID)
	})
	if err != nil {
		s.unavailable(w, r, "charging the payment", err)
		return
	}

	body, err := json.Marshal(p)
	if err != nil {
		s.unavailable(w, r, "encoding the payment", err)
		return
	}
	sum := sha256.Sum256(body)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Location", "/v1/payments/"+p.ID)
	h.Set("ETag", `"`+hex.EncodeToString(sum[:8])+`"`)
	w.WriteHeader(http.StatusCreated)
	w.Write(body)
}

// unavailable answers 503 for a failure that a retry with the same key may get past. Nothing is
// stored for it: the key is released (recorded steps are kept).
func (s *Service) unavailable(w http.ResponseWriter, r *http.Request, what string, err error) {
	s.log.WarnContext(r.Context(), "payments: "+what+" failed", "err", err)
	w.Header().Set("Retry-After", "1")
	problem(w, http.StatusServiceUnavailable, "temporarily_unavailable",
		what+" failed; retry with the same Idempotency-Key: the payment will not be made twice")
}

func (s *Service) listPayments(w http.ResponseWriter, r *http.Request) {
	tenant, err := tenant(r)
	if err != nil {
		problem(w, http.StatusBadRequest, "tenant_invalid", err.Error())
		return
	}
	ps, err := s.cfg.Repo.List(r.Context(), tenant)
	if err != nil {
		s.unavailable(w, r, "listing payments", err)
		return
	}
	if ps == nil {
		ps = []Payment{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"payments": ps})
}

func (s *Service) getPayment(w http.ResponseWriter, r *http.Request) {
	tenant, err := tenant(r)
	if err != nil {
		problem(w, http.StatusBadRequest, "tenant_invalid", err.Error())
		return
	}
	p, err := s.cfg.Repo.Get(r.Context(), tenant, r.PathValue("id"))
	if errors.Is(err, ErrNotFound) {
		problem(w, http.StatusNotFound, "not_found", "no such payment")
		return
	}
	if err != nil {
		s.unavailable(w, r, "reading the payment", err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Service) listCharges(w http.ResponseWriter, r *http.Request) {
	cs, err := s.cfg.Provider.Charges(r.Context())
	if err != nil {
		s.unavailable(w, r, "listing charges", err)
		return
	}
	if cs == nil {
		cs = []Charge{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"charges": cs})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func problem(w http.ResponseWriter, status int, code, detail string) {
	idempotency.WriteProblem(w, idempotency.Problem{Status: status, Code: code, Detail: detail})
}

func newID(prefix string) string {
	var b [12]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}
