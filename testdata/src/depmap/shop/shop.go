// Package shop is a service whose requests reach a payments API (through a retry loop around a
// client that retries on its own, and through a retry library), a database, and, from a
// Temporal activity, EC2: the map's paths, their layers and their worst cases.
package shop

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log"
	"math/rand/v2"
	"net/http"
	"time"

	retry "github.com/avast/retry-go/v4"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/google/uuid"
	retryablehttp "github.com/hashicorp/go-retryablehttp"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"google.golang.org/grpc"
)

const paymentsAPI = "https://api.payments.example"

type Server struct {
	DB       *sql.DB
	Payments *retryablehttp.Client
	HTTP     *http.Client
}

func New(db *sql.DB) *Server {
	return &Server{DB: db, Payments: retryablehttp.NewClient(), HTTP: &http.Client{Timeout: 5 * time.Second}}
}

func jitter(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

// Checkout charges an order, retrying the charge three times (jittered) around the payments
// client, which retries on its own, with one idempotency key for every attempt.
func (s *Server) Checkout(w http.ResponseWriter, r *http.Request) { // want Checkout:"reaches api.payments.example, SQL database via database/sql"
	ctx := r.Context()
	order := r.URL.Query().Get("order")
	key := uuid.NewString()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.charge(ctx, key, order); err == nil {
			break
		}
		log.Printf("charge %s: attempt %d: %v", order, attempt, err)
		select {
		case <-ctx.Done():
			http.Error(w, "payment timed out", http.StatusGatewayTimeout)
			return
		case <-time.After(jitter(time.Second << attempt)):
		}
	}
	if err != nil {
		http.Error(w, "payment failed", http.StatusBadGateway)
		return
	}
	if _, err := s.DB.ExecContext(ctx, "UPDATE orders SET paid = true WHERE id = $1", order); err != nil {
		log.Printf("mark %s paid: %v", order, err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) charge(ctx context.Context, key, order string) error { // unexported: no fact, other packages cannot call it
	body, err := json.Marshal(map[string]string{"order": order})
	if err != nil {
		return err
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, paymentsAPI+"/v1/charges", body)
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.Payments.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("charge %s: %s", order, resp.Status)
	}
	return nil
}

// Refund retries an unkeyed POST four times with retry-go.
func (s *Server) Refund(ctx context.Context, charge string) error { // want Refund:"reaches api.payments.example"
	return retry.Do(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, paymentsAPI+"/v1/refunds?charge="+charge, nil)
		if err != nil {
			return retry.Unrecoverable(err)
		}
		resp, err := s.HTTP.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode >= 500 {
			return fmt.Errorf("refund %s: %s", charge, resp.Status)
		}
		return nil
	}, retry.Attempts(4), retry.Delay(200*time.Millisecond), retry.Context(ctx))
}

// NotifyShipped tells a partner that an order left, three times at most, two seconds apart,
// each attempt bounded by the client's five seconds: at most 3×5s + 2×2s = 19s.
func (s *Server) NotifyShipped(order string) error { // want NotifyShipped:"reaches hooks.partner.example"
	key := uuid.NewString()
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var req *http.Request
		req, err = http.NewRequest(http.MethodPost, "https://hooks.partner.example/v1/shipped?order="+order, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		var resp *http.Response
		if resp, err = s.HTTP.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		log.Printf("notify %s: %v", order, err)
		time.Sleep(2 * time.Second)
	}
	return err
}

// A notifier tells someone that an order shipped; Ship is given one of the package's two.
type notifier interface {
	notify(ctx context.Context, order string) error
}

type webhook struct {
	url    string
	client *http.Client
}

func (w *webhook) notify(ctx context.Context, order string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://status.partner.example/v1/ping?order="+order, nil)
	if err != nil {
		return err
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type logOnly struct{}

func (logOnly) notify(ctx context.Context, order string) error {
	log.Printf("order %s shipped", order)
	return nil
}

// Ship tells the notifier it is given: through the package's own interface, the webhook's
// request is on its path.
func Ship(ctx context.Context, n notifier, order string) error { // want Ship:"reaches status.partner.example"
	return n.notify(ctx, order)
}

// A generated-style gRPC client of the ledger service: the stub names its service only in the
// method it invokes.
type LedgerClient interface {
	Record(ctx context.Context, in *Entry, opts ...grpc.CallOption) (*Entry, error)
}

type Entry struct {
	Order  string
	Amount int64
}

type ledgerClient struct {
	cc grpc.ClientConnInterface
}

func NewLedgerClient(cc grpc.ClientConnInterface) LedgerClient { return &ledgerClient{cc} }

func (c *ledgerClient) Record(ctx context.Context, in *Entry, opts ...grpc.CallOption) (*Entry, error) { // want Record:"reaches gRPC ledger.v1.Ledger"
	out := new(Entry)
	if err := c.cc.Invoke(ctx, "/ledger.v1.Ledger/Record", in, out, opts...); err != nil {
		return nil, err
	}
	return out, nil
}

// Book records an order through the stub's interface.
func Book(ctx context.Context, cc *grpc.ClientConn, order string, amount int64) error { // want Book:"reaches gRPC ledger.v1.Ledger"
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	_, err := NewLedgerClient(cc).Record(ctx, &Entry{Order: order, Amount: amount})
	return err
}

// Routes hands the handlers out as values.
func Routes(s *Server) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/checkout", s.Checkout)
	mux.HandleFunc("/health", health)
	return mux
}

func health(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }

// Activities are run by Temporal, which runs a failed activity again.
type Activities struct {
	EC2 *ec2.Client
}

// Launch starts a build machine; Temporal's default policy retries it without a cap, and the
// EC2 client retries each attempt on its own.
func (a *Activities) Launch(ctx context.Context, image string) (string, error) { // want Launch:"reaches AWS ec2"
	out, err := a.EC2.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(image), MinCount: aws.Int32(1), MaxCount: aws.Int32(1)})
	if err != nil {
		return "", fmt.Errorf("launch %s: %w", image, err)
	}
	_ = out
	return image, nil
}

func Register(ctx context.Context, c client.Client) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	w := worker.New(c, "builds", worker.Options{})
	w.RegisterActivity(&Activities{EC2: ec2.NewFromConfig(cfg)})
	return w.Run(worker.InterruptCh())
}
