package loops

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"
)

var client = &http.Client{Timeout: 10 * time.Second}

func newRequest(ctx context.Context) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://api.example.com/charges", nil)
	return req
}

// ---- Reported ----

func keyInCountedLoop(ctx context.Context) error {
	req := newRequest(ctx)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		key := uuid.NewString() // related "loops.go:27: retry loop" "loops.go:29: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		req.Header.Set("Idempotency-Key", key)
		var resp *http.Response
		resp, err = client.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func inlineKey(ctx context.Context) error {
	req := newRequest(ctx)
	for {
		req.Header.Set("Idempotency-Key", uuid.New().String()) // related "loops.go:43: retry loop" "loops.go:44: sent as header \"Idempotency-Key\"" // want `uuid\.New makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
}

func sprintfKey(ctx context.Context, orderID string) error {
	req := newRequest(ctx)
	var err error
	for i := range 4 {
		_ = i
		var key string
		key = fmt.Sprintf("%s-%s", orderID, uuid.NewString()) // related "loops.go:57: retry loop" "loops.go:61: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		req.Header["Idempotency-Key"] = []string{key}
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

func randomBytes(ctx context.Context) error {
	req := newRequest(ctx)
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		b := make([]byte, 16)
		_, _ = rand.Read(b) // related "loops.go:72: retry loop" "loops.go:75: sent as header \"X-Idempotency-Key\"" // want `rand\.Read makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		req.Header.Add("X-Idempotency-Key", hex.EncodeToString(b))
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

func timeBasedKey(ctx context.Context) error {
	req := newRequest(ctx)
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		id := strconv.FormatInt(time.Now().UnixNano(), 10) // related "loops.go:86: retry loop" "loops.go:88: sent as header \"Idempotency-Token\"" // want `time\.Now makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		req.Header.Set("Idempotency-Token", "ord-"+id)
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

type chargeRequest struct {
	Amount         int64  `json:"amount"`
	IdempotencyKey string `json:"idempotency_key"`
}

func post(ctx context.Context, body any) error { return nil }

func structField(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		body := chargeRequest{Amount: 100}
		body.IdempotencyKey = uuid.NewString() // related "loops.go:105: retry loop" "loops.go:107: sent as field IdempotencyKey" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		if err = post(ctx, body); err == nil {
			return nil
		}
	}
	return err
}

type payload struct {
	Key string `json:"idempotency_key"`
}

func jsonTag(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		p := payload{Key: uuid.NewString()} // related "loops.go:121: retry loop" "loops.go:122: sent as field Key" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		if err = post(ctx, p); err == nil {
			return nil
		}
	}
	return err
}

func mapBody(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		id, _ := uuid.NewRandom() // related "loops.go:132: retry loop" "loops.go:134: sent as map key \"idempotency_key\"" // want `uuid\.NewRandom makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		body := map[string]any{"amount": 100, "idempotency_key": id.String()}
		if err = post(ctx, body); err == nil {
			return nil
		}
	}
	return err
}

func gotoLoop(ctx context.Context) error {
	req := newRequest(ctx)
	tries := 0
again:
	req.Header.Set("Idempotency-Key", uuid.NewString()) // related "loops.go:145: goto retry loop" "loops.go:146: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the goto retry loop; move it out`
	if _, err := client.Do(req); err != nil && tries < 3 {
		tries++
		goto again
	}
	return nil
}

func recursive(ctx context.Context, n int) error {
	req := newRequest(ctx)
	req.Header.Set("Idempotency-Key", uuid.NewString()) // related "loops.go:154: retrying recursion" "loops.go:156: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retrying function recursive; move it out`
	if _, err := client.Do(req); err != nil && n > 0 {
		return recursive(ctx, n-1)
	}
	return nil
}

// A function wrapping the generator is a generator.
func newKey() string { return "key-" + uuid.NewString() }

func wrappedGenerator(ctx context.Context) error {
	req := newRequest(ctx)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		k := newKey() // related "loops.go:169: retry loop" "loops.go:171: sent as header \"Idempotency-Key\"" // want `newKey makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		req.Header.Set("Idempotency-Key", k)
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// The key is set by a helper of this package.
func setKey(req *http.Request, key string) { req.Header.Set("Idempotency-Key", key) }

func throughHelper(ctx context.Context) error {
	req := newRequest(ctx)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		key := uuid.NewString() // related "loops.go:185: retry loop" "loops.go:187: sent as header \"Idempotency-Key\" via setKey" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
		setKey(req, key)
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// A function that makes and sends a key on every call, called in the loop.
func charge(ctx context.Context) error {
	req := newRequest(ctx)
	req.Header.Set("Idempotency-Key", uuid.NewString())
	_, err := client.Do(req)
	return err
}

func callsMinter(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = charge(ctx); err == nil { // related "loops.go:205: retry loop" "loops.go:205: key made by uuid.NewString at loops.go:198" // want `charge makes a new idempotency key per call: each attempt of the retry loop sends a different one`
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A closure created and called in the loop runs per attempt too.
func closureInLoop(ctx context.Context) error {
	req := newRequest(ctx)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = func() error {
			req.Header.Set("Idempotency-Key", uuid.NewString()) // related "loops.go:218: retry loop" "loops.go:220: sent as header \"Idempotency-Key\"" // want `uuid\.NewString makes a new idempotency key per attempt of the retry loop: retries cannot be deduplicated; move it out`
			_, err := client.Do(req)
			return err
		}()
		if err == nil {
			return nil
		}
	}
	return err
}

// ---- Not reported ----

// The key is made once, before the loop.
func keyBeforeLoop(ctx context.Context) error {
	req := newRequest(ctx)
	req.Header.Set("Idempotency-Key", uuid.NewString())
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// A per-attempt request id is fine: it is not a dedup key.
func requestID(ctx context.Context, key string) error {
	req := newRequest(ctx)
	req.Header.Set("Idempotency-Key", key)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req.Header.Set("X-Request-ID", uuid.NewString())
		req.Header.Set("Traceparent", fmt.Sprintf("00-%s-01", uuid.NewString()))
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// A deterministic key from loop-invariant data.
func deterministic(ctx context.Context, orderID string) error {
	req := newRequest(ctx)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		key := uuid.NewSHA1(uuid.NameSpaceURL, []byte(orderID)).String()
		req.Header.Set("Idempotency-Key", key)
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// Iteration: one order per element, each with its own key.
func perOrder(ctx context.Context, orders []string) error {
	for _, o := range orders {
		req := newRequest(ctx)
		req.Header.Set("Idempotency-Key", uuid.NewString())
		req.Header.Set("X-Order", o)
		if _, err := client.Do(req); err != nil {
			return err
		}
	}
	return nil
}

// A counted loop that submits one item each time round is iteration too.
func perIndex(ctx context.Context, orders []string) error {
	for i := 0; i < len(orders); i++ {
		req := newRequest(ctx)
		req.Header.Set("Idempotency-Key", uuid.NewString()+orders[i])
		if _, err := client.Do(req); err != nil {
			return err
		}
	}
	return nil
}

// The key is filled in once, the first time round; later attempts reuse it.
func fillOnce(ctx context.Context) error {
	req := newRequest(ctx)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if req.Header.Get("Idempotency-Key") == "" {
			req.Header.Set("Idempotency-Key", uuid.NewString())
		}
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// Random jitter inside the loop is not a key.
func jitter(ctx context.Context, key string) error {
	req := newRequest(ctx)
	req.Header.Set("Idempotency-Key", key)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = client.Do(req); err == nil {
			return nil
		}
		time.Sleep(time.Duration(time.Now().UnixNano() % 1000))
	}
	return err
}

// A fresh value inside a loop that is not a retry (a worker loop).
func worker(ctx context.Context, jobs chan string) {
	for j := range jobs {
		req := newRequest(ctx)
		req.Header.Set("Idempotency-Key", uuid.NewString()+j)
		_, _ = client.Do(req)
	}
}

// The key is made before the loop and only logged inside it.
func logged(ctx context.Context) error {
	key := uuid.NewString()
	req := newRequest(ctx)
	req.Header.Set("Idempotency-Key", key)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		fmt.Println("attempt", attempt, "key", key, "at", time.Now())
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}

// The value goes to a different field of the same struct.
type order struct {
	IdempotencyKey string
	TraceID        string
}

func otherField(ctx context.Context, key string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		o := order{IdempotencyKey: key}
		o.TraceID = uuid.NewString()
		if err = post(ctx, o); err == nil {
			return nil
		}
	}
	return err
}

// A fresh key per attempt that is suppressed with a reason.
func suppressed(ctx context.Context) error {
	req := newRequest(ctx)
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		//idemlint:ignore keyinloop the server treats these as distinct probes on purpose
		req.Header.Set("Idempotency-Key", uuid.NewString())
		if _, err = client.Do(req); err == nil {
			return nil
		}
	}
	return err
}
