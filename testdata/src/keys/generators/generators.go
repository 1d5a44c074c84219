// Package generators: calls that make a fresh value, returned or filling a buffer.
package generators

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	mrand "math/rand"
	mrand2 "math/rand/v2"
	"net/http"
	"strconv"
	"time"

	gofrs "github.com/gofrs/uuid/v5"
	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
)

// Returned values.

func libraries(req *http.Request) { // want libraries:`mints a key: uuid.NewString at generators.go:26 sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", uuid.NewString())                        // want `uuid.NewString: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", uuid.New().String())                     // want `uuid.New: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", xid.New().String())                      // want `xid.New: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", ksuid.New().String())                    // want `ksuid.New: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", ulid.Make().String())                    // want `ulid.Make: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", rand.Text())                             // want `rand.Text: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", fmt.Sprint(mrand.Int63()))               // want `rand.Int63: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", strconv.FormatUint(mrand2.Uint64(), 16)) // want `rand.Uint64: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", time.Now().Format(time.RFC3339Nano))     // want `time.Now: sent as header "Idempotency-Key"`
	id := gofrs.Must(gofrs.NewV7())                                            // want `uuid.NewV7: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", id.String())
}

// A function returning a generator's value is a generator.
func newKey() string { // want newKey:"generator: uuid.NewString"
	return "key_" + uuid.NewString() // want `uuid.NewString: not sent as a key; returned`
}

func wrapped(req *http.Request) { // want wrapped:`mints a key: newKey at generators.go:45 sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", newKey()) // want `newKey: sent as header "Idempotency-Key"`
}

// Buffer fillers: the fresh value is the buffer.

func cryptoRead(req *http.Request) error { // want cryptoRead:`mints a key: rand.Read`
	var raw [16]byte
	if _, err := rand.Read(raw[:]); err != nil { // want `rand.Read: sent as header "Idempotency-Key"`
		return err
	}
	req.Header.Set("Idempotency-Key", hex.EncodeToString(raw[:]))
	return nil
}

func readFull(req *http.Request) error { // want readFull:`mints a key: rand.Reader`
	b := make([]byte, 18)
	if _, err := io.ReadFull(rand.Reader, b); err != nil { // want `rand.Reader: sent as header "Idempotency-Key"`
		return err
	}
	req.Header.Set("Idempotency-Key", base64.RawURLEncoding.EncodeToString(b))
	return nil
}

func readerRead(req *http.Request) error { // want readerRead:`mints a key: rand.Reader`
	b := make([]byte, 16)
	if _, err := rand.Reader.Read(b); err != nil { // want `rand.Reader: sent as header "Idempotency-Key"`
		return err
	}
	req.Header.Set("Idempotency-Key", fmt.Sprintf("%x", b))
	return nil
}

func mathRead(req *http.Request, r *mrand.Rand) { // want mathRead:`mints a key: rand.Read`
	b := make([]byte, 8)
	mrand.Read(b) // want `rand.Read: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", string(b))
	c := make([]byte, 8)
	r.Read(c) // want `Rand.Read: sent as header "X-Idempotency-Key"`
	req.Header.Set("X-Idempotency-Key", hex.EncodeToString(c))
}

func chacha(req *http.Request, src *mrand2.ChaCha8) { // want chacha:`mints a key: ChaCha8.Read`
	var raw [32]byte
	_, _ = src.Read(raw[:]) // want `ChaCha8.Read: sent as header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", hex.EncodeToString(raw[:]))
}

// A filled buffer returned from a function makes that function a generator.
func randomToken() (string, error) { // want randomToken:"generator: rand.Read"
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil { // want `rand.Read: not sent as a key; returned`
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// Not generators: deterministic ids, and reads from other readers.

func notFresh(req *http.Request, r io.Reader, orderID string) { // want notFresh:`sends parameters \[2\] to header "Idempotency-Key"`
	req.Header.Set("Idempotency-Key", uuid.NewSHA1(uuid.NameSpaceURL, []byte(orderID)).String())
	b := make([]byte, 16)
	_, _ = io.ReadFull(r, b)
	req.Header.Set("Idempotency-Key", hex.EncodeToString(b))
}

// A generator that encodes its random bytes into another buffer (bce-sdk-go's NewUUID):
// hex.Encode, base64's Encode and copy write into their first argument.
func hexUUID() string { // want hexUUID:"generator: rand.Read"
	var buf [16]byte
	for {
		if _, err := rand.Read(buf[:]); err == nil { // want `rand.Read: not sent as a key; returned`
			break
		}
	}
	buf[6] = (buf[6] & 0x0f) | (4 << 4)
	res := make([]byte, 36)
	hex.Encode(res[0:8], buf[0:4])
	res[8] = '-'
	hex.Encode(res[9:], buf[4:])
	return string(res)
}

func encodedKeys() (string, []byte) { // want encodedKeys:"generator: rand.Read"
	raw := make([]byte, 16)
	if _, err := rand.Read(raw); err != nil { // want `rand.Read: not sent as a key; returned`
		panic(err)
	}
	enc := make([]byte, base64.RawURLEncoding.EncodedLen(len(raw)))
	base64.RawURLEncoding.Encode(enc, raw)
	cp := make([]byte, 16)
	copy(cp, raw)
	return string(enc), cp
}
