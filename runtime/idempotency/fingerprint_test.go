package idempotency_test

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/idemlint/idemlint/runtime/idempotency"
)

func fp(body string) string { return idempotency.Fingerprint("POST", "/v1/payments", []byte(body)) }

func TestFingerprintCanonicalJSON(t *testing.T) {
	same := [][]string{
		{`{"amount":1000,"currency":"EUR","customer":"cus_1"}`,
			`{ "customer": "cus_1", "currency": "EUR", "amount": 1000 }`,
			"{\n\t\"currency\" : \"EUR\",\n\t\"amount\":1000,\"customer\":\"cus_1\"\n}\n"},
		{`{"a":{"y":[1,2,{"q":true,"p":null}],"x":"s"}}`, `{"a":{"x":"s","y":[1,2,{"p":null,"q":true}]}}`},
		{`{"s":"A\u00e9\n<>&"}`, "{\"s\":\"\\u0041\u00e9\\n\\u003c>&\"}"},
		{`{"a":1,"a":2}`, `{"a":2}`},
	}
	for _, group := range same {
		for _, b := range group[1:] {
			assert.Equal(t, fp(group[0]), fp(b), "%s vs %s", group[0], b)
		}
	}
	different := [][2]string{
		{`{"amount":1000}`, `{"amount":1001}`},
		{`{"amount":1000}`, `{"amount":"1000"}`},
		{`{"amount":1000}`, `{"amount":1e3}`}, // numbers keep their spelling
		{`[1,2]`, `[2,1]`},
		{`{"a":1}`, `{"a":1} {"b":2}`}, // trailing data: raw bytes
		{``, `null`},
		{`a=1&b=2`, `b=2&a=1`}, // not JSON: raw bytes
		{`{"a":1}`, `{"a":1,}`},
		{`{"k":"a"}`, `{"K":"a"}`},
	}
	for _, d := range different {
		assert.NotEqual(t, fp(d[0]), fp(d[1]), "%s vs %s", d[0], d[1])
	}
}

func TestFingerprintMethodAndRoute(t *testing.T) {
	body := []byte(`{"a":1}`)
	base := idempotency.Fingerprint("POST", "/v1/payments", body)
	assert.Equal(t, base, idempotency.Fingerprint("post", "/v1/payments", body))
	assert.NotEqual(t, base, idempotency.Fingerprint("PATCH", "/v1/payments", body))
	assert.NotEqual(t, base, idempotency.Fingerprint("POST", "/v1/refunds", body))
	// Field boundaries are unambiguous.
	assert.NotEqual(t, idempotency.Fingerprint("POST", "/a", []byte("b")), idempotency.Fingerprint("POST", "/ab", nil))
	assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{64}$`), base)
}

// The fingerprint is persisted: changing the algorithm would turn every stored key into a 422.
// The expected value was computed independently (Python: sha256 over the length-prefixed
// "idempotency/v1", "POST", "/v1/payments", "json" and the canonical body).
func TestFingerprintIsStable(t *testing.T) {
	assert.Equal(t, "518d89aa5b5570ff14168cece80cf91a2dff863607f95eb3221f71d7fd137b83", fp(`{"amount":1000,"currency":"EUR","customer":"cus_1"}`))
}

func TestCanonicalJSON(t *testing.T) {
	got, ok := idempotency.CanonicalJSON([]byte(` {"b":[true,false,null,"x\"y"],"a":-1.50e+2} `))
	assert.True(t, ok)
	assert.Equal(t, `{"a":-1.50e+2,"b":[true,false,null,"x\"y"]}`, string(got))
	for _, bad := range []string{"", "  ", "{", `{"a":1}x`, "\xff\"\"", "nope"} {
		_, ok := idempotency.CanonicalJSON([]byte(bad))
		assert.False(t, ok, "%q", bad)
	}
}
