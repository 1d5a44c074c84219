package idempotency_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/idemlint/idemlint/runtime/idempotency"
	"github.com/idemlint/idemlint/runtime/idempotency/memstore"
)

func ExampleMiddleware() {
	charges := 0
	create := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		charges++
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		fmt.Fprintf(w, `{"id":"pay_%d"}`, charges)
	})
	keyed := idempotency.Middleware(idempotency.Config{
		Runner: idempotency.Runner{Store: memstore.New()},
		Tenant: func(r *http.Request) (string, error) { return r.Header.Get("X-Tenant-ID"), nil },
	})
	h := keyed(create)

	send := func(body string) {
		r := httptest.NewRequest(http.MethodPost, "/v1/payments", strings.NewReader(body))
		r.Header.Set("X-Tenant-ID", "acme")
		r.Header.Set("Idempotency-Key", "8e03978e-40d5-43e8-bc93-6894a57f9324")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		fmt.Println(w.Code, w.Header().Get("Idempotent-Replayed"), strings.TrimSpace(w.Body.String()))
	}
	send(`{"amount": 1000, "currency": "EUR"}`)
	send(`{"currency": "EUR", "amount": 1000}`) // the same request: replayed
	send(`{"amount": 2000, "currency": "EUR"}`) // the key reused for another request
	fmt.Println("charges:", charges)
	// Output:
	// 201  {"id":"pay_1"}
	// 201 true {"id":"pay_1"}
	// 422  {"type":"about:blank","title":"Unprocessable Entity","status":422,"detail":"this idempotency key was already used for a different request (method, path or body differ); use a new key for a new operation","code":"idempotency_key_reused"}
	// charges: 1
}

// A queue consumer uses the core directly: the message id is the key, the queue the scope.
func ExampleDo() {
	store := memstore.New()
	handle := func(ctx context.Context, msgID string, payload []byte) error {
		fp := idempotency.Fingerprint("CONSUME", "orders", payload)
		out, err := idempotency.Do(ctx, store, "orders-queue", msgID, fp, func(ctx context.Context) (idempotency.Response, error) {
			fmt.Println("processing", msgID)
			return idempotency.Response{Status: 200}, nil
		})
		if err != nil {
			return err // not acknowledged: the message is redelivered, and processed once
		}
		fmt.Println("acknowledged", msgID, "replayed:", out.Replayed)
		return nil
	}
	handle(context.Background(), "msg-1", []byte(`{"order":42}`))
	handle(context.Background(), "msg-1", []byte(`{"order":42}`)) // redelivered
	// Output:
	// processing msg-1
	// acknowledged msg-1 replayed: false
	// acknowledged msg-1 replayed: true
}
