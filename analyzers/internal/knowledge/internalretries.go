package knowledge

// internalRetries are packages whose retry loops are no retry layer of the program that calls
// them, by import path, with why.
var internalRetries = map[string]string{
	// clientStream.withRetry replays a call only transparently (the request never reached the
	// server's handler) or under a retryPolicy in the service config, which is off unless the
	// program or its resolver sets one: a stub's call is one attempt.
	GRPCPath: "transparent retries, and a retryPolicy only where the service config sets one",
	// ResumableUpload retries the chunks of a resumable media upload (content larger than a
	// chunk, 16 MiB by default), each chunk for at most 32 s; a generated call without media,
	// or with media that fits a chunk, is sent once.
	"google.golang.org/api/internal/gensupport": "retries only the chunks of a large media upload",
	"google.golang.org/api/gensupport":          "retries only the chunks of a large media upload",
}

// InternalRetries reports whether the retry loops of the package at path are no retry layer of
// its callers (see internalRetries).
func InternalRetries(path string) bool {
	_, ok := internalRetries[path]
	return ok
}
