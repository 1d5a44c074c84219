package clients

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"cloud.google.com/go/pubsub/v2"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
	"github.com/Azure/azure-sdk-for-go/sdk/azcore/policy"
	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"
	backoff4 "github.com/cenkalti/backoff/v4"
	"oras.land/oras-go/v2/registry/remote/retry"
)

var errNotFound = errors.New("not found")

// ---- Reported: Azure SDK clients and oras-go's retrying transport ----

// Archive uploads a report, retrying an upload the pipeline already retried.
func Archive(ctx context.Context, cred azcore.TokenCredential, account, name string, report []byte) error {
	client, err := azblob.NewClient(fmt.Sprintf("https://%s.blob.core.windows.net/", account), cred, nil)
	if err != nil {
		return fmt.Errorf("blob client: %w", err)
	}
	for attempt := 1; attempt <= 3; attempt++ {
		_, err = client.UploadBuffer(ctx, "reports", name, report, &azblob.UploadBufferOptions{}) // related "cloud.go:29: outer retry loop" // want `3 attempts around azblob\.Client\.UploadBuffer, which makes 4 each: up to 12 calls on transient failures; keep one layer`
		if err == nil {
			return nil
		}
		log.Printf("upload %s (attempt %d): %v", name, attempt, err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(jitter(2 * time.Second)):
		}
	}
	return err
}

// ArchiveTuned raises the pipeline's retries in a nested options literal.
func ArchiveTuned(ctx context.Context, cred azcore.TokenCredential, url, name string, report []byte) error {
	opts := &azblob.ClientOptions{ClientOptions: azcore.ClientOptions{Retry: policy.RetryOptions{MaxRetries: 9, RetryDelay: time.Second}}}
	client, err := azblob.NewClient(url, cred, opts)
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 2; attempt++ {
		if _, err = client.UploadBuffer(ctx, "reports", name, report, nil); err == nil { // related "cloud.go:51: outer retry loop" // want `2 attempts around azblob\.Client\.UploadBuffer, which makes 10 each: up to 20 calls on transient failures; keep one layer`
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// Manifest fetches a manifest through oras-go's retrying client.
func Manifest(ctx context.Context, ref string) (*http.Response, error) {
	client := retry.NewClient()
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://registry.example.com/v2/"+ref, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/vnd.oci.image.manifest.v1+json")
		resp, err := client.Do(req) // related "cloud.go:64: outer retry loop" // want `4 attempts around http\.Client\.Do, which makes 6 each: up to 24 calls on transport errors, 5xx; keep one layer`
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("registry: %s", resp.Status)
		}
		lastErr = err
		time.Sleep(jitter(500 * time.Millisecond))
	}
	return nil, lastErr
}

// Blob goes through a client of its own over retry.Transport.
func Blob(ctx context.Context, url string) error {
	hc := &http.Client{Transport: retry.NewTransport(http.DefaultTransport), Timeout: time.Minute}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		if resp, err = hc.Get(url); err == nil { // related "cloud.go:88: outer retry loop" // want `3 attempts around http\.Client\.Get, which makes 6 each: up to 18 calls on transport errors; keep one layer`
			resp.Body.Close()
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// ---- Not reported ----

// ArchiveOnce switches the pipeline's retries off.
func ArchiveOnce(ctx context.Context, cred azcore.TokenCredential, url, name string, report []byte) error {
	client, err := azblob.NewClient(url, cred, &azblob.ClientOptions{ClientOptions: policy.ClientOptions{Retry: policy.RetryOptions{MaxRetries: -1}}})
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = client.UploadBuffer(ctx, "reports", name, report, nil); err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// BlobURL asks the client for a string: nothing is sent.
func BlobURL(ctx context.Context, client *azblob.Client) string {
	for attempt := 0; attempt < 3; attempt++ {
		if u := client.URL(); u != "" {
			return u
		}
	}
	return ""
}

// Plain uses a plain client: one layer.
func Plain(ctx context.Context, url string) error {
	hc := &http.Client{Timeout: 10 * time.Second}
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		var resp *http.Response
		if resp, err = hc.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
		if errors.Is(err, errNotFound) {
			return err
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// Consume restarts the subscriber's receive loop when it gives up, with no end: the stream's
// own reconnects are the framework's, not a retried request.
func Consume(ctx context.Context, sub *pubsub.Subscriber, out chan<- *pubsub.Message) error {
	b := backoff4.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	return backoff4.Retry(func() error {
		err := receive(ctx, sub, out)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return backoff4.Permanent(err)
		}
		log.Printf("receive: %v, restarting", err)
		return err
	}, b)
}

func receive(ctx context.Context, sub *pubsub.Subscriber, out chan<- *pubsub.Message) error {
	return sub.Receive(ctx, func(ctx context.Context, m *pubsub.Message) {
		select {
		case out <- m:
		case <-ctx.Done():
		}
	})
}
