package knowledge

import "github.com/idemlint/idemlint/analyzers/internal/flow"

// What makes and carries an idempotency key: the names a key is sent under, the library
// functions that make a fresh unique value each call, and the encoders a key's bytes are
// written through. The keys model reads them.

// KeyNames are the names an idempotency key is sent under (a header, a field, a JSON key, a
// setter's name), normalised: letters and digits only, lower case ("Idempotency-Key" and
// "idempotency_key" are "idempotencykey").
var KeyNames = []string{"idempotencykey", "xidempotencykey", "idempotencytoken", "clienttoken", "clientrequesttoken",
	// Standard Webhooks' message id (and Svix's, whose scheme it is): the same on every delivery of
	// a message, for receivers to deduplicate on; also sent as an extension header (X-Webhook-Id).
	// (Not every X- form of a name is a key: X-Client-Token is often a fixed credential.)
	"webhookid", "svixid", "xwebhookid", "xsvixid"}

// KeyGenerators are the library functions that make a fresh unique value on every call.
var KeyGenerators = func() []flow.FuncID {
	var ids []flow.FuncID
	add := func(pkgs []string, names ...string) {
		for _, p := range pkgs {
			for _, n := range names {
				ids = append(ids, flow.FuncID{Pkg: p, Name: n})
			}
		}
	}
	add([]string{"github.com/google/uuid"}, "New", "NewString", "NewRandom", "NewV7", "NewUUID", "NewV6", "NewRandomFromReader")
	add([]string{"github.com/gofrs/uuid", "github.com/gofrs/uuid/v3", "github.com/gofrs/uuid/v4", "github.com/gofrs/uuid/v5",
		"github.com/satori/go.uuid"}, "NewV1", "NewV4", "NewV6", "NewV7")
	add([]string{"github.com/rs/xid"}, "New", "NewWithTime")
	add([]string{"github.com/segmentio/ksuid"}, "New", "NewRandom", "NewRandomWithTime")
	add([]string{"github.com/oklog/ulid", "github.com/oklog/ulid/v2"}, "Make", "New", "MustNew", "MustNewDefault")
	add([]string{"crypto/rand"}, "Text", "Int", "Prime")
	add([]string{"time"}, "Now")
	add([]string{"github.com/idemlint/idemlint/runtime/idempotency"}, "NewKey")
	return ids
}()

// RandomNumber reports whether id is one of math/rand's or math/rand/v2's number functions
// or methods (not their constructors, and not Read, which fills a buffer): a fresh value on
// every call.
func RandomNumber(id flow.FuncID) bool {
	if id.Pkg != "math/rand" && id.Pkg != "math/rand/v2" {
		return false
	}
	switch id.Name {
	case "New", "NewSource", "NewPCG", "NewChaCha8", "NewZipf", "Seed", "Shuffle", "Read":
		return false
	}
	return true
}

// bufferEncoders write what their other arguments hold into their first, a destination
// buffer (hex.Encode(dst, src)).
var bufferEncoders = map[flow.FuncID]bool{
	{Pkg: "encoding/hex", Name: "Encode"}:                      true,
	{Pkg: "encoding/base64", Recv: "Encoding", Name: "Encode"}: true,
	{Pkg: "encoding/base32", Recv: "Encoding", Name: "Encode"}: true,
}

// BufferEncoder reports whether id writes its other arguments into its first (see
// bufferEncoders).
func BufferEncoder(id flow.FuncID) bool { return bufferEncoders[id] }
