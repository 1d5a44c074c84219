// Package clients wraps SDK clients that retry on their own in retries of its own.
package clients

import (
	"bytes"
	"context"
	"log"
	"math/rand/v2"
	"time"

	"cloud.google.com/go/storage"
	retrygo "github.com/avast/retry-go/v4"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/minio/minio-go/v7"
	stripe "github.com/stripe/stripe-go/v82"
	"github.com/stripe/stripe-go/v82/paymentintent"
)

func jitter(d time.Duration) time.Duration { return time.Duration(rand.Int64N(int64(d))) }

// ---- Reported: each client with its default ----

func Launch(ctx context.Context, image string) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	c := ec2.NewFromConfig(cfg)
	for attempt := 0; attempt < 3; attempt++ {
		in := &ec2.RunInstancesInput{ImageId: aws.String(image), MinCount: aws.Int32(1), MaxCount: aws.Int32(1)}
		if _, err = c.RunInstances(ctx, in); err == nil { // related "clients.go:31: outer retry loop" // want `3 attempts around ec2\.Client\.RunInstances, which makes 3 each: up to 9 calls on transient failures; keep one layer`
			return nil
		}
		log.Printf("run instances: %v", err)
		time.Sleep(jitter(time.Second))
	}
	return err
}

func Charge(ctx context.Context, amount int64) (*stripe.PaymentIntent, error) {
	var pi *stripe.PaymentIntent
	err := retrygo.Do(func() error {
		params := &stripe.PaymentIntentParams{Amount: stripe.Int64(amount), Currency: stripe.String("eur")}
		var err error
		pi, err = paymentintent.New(params) // related "clients.go:44: outer retry callback" // want `4 attempts around paymentintent\.New, which makes 3 each: up to 12 calls on transient failures; keep one layer`
		return err
	}, retrygo.Attempts(4), retrygo.Context(ctx))
	return pi, err
}

func Store(ctx context.Context, mc *minio.Client, bucket, name string, data []byte) error {
	var err error
	for attempt := 0; attempt < 2; attempt++ {
		if _, err = mc.PutObject(ctx, bucket, name, bytes.NewReader(data), int64(len(data)), minio.PutObjectOptions{ContentType: "application/octet-stream"}); err == nil { // related "clients.go:55: outer retry loop" // want `2 attempts around minio\.Client\.PutObject, which makes 10 each: up to 20 calls on transient failures; keep one layer`
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// Remove deletes one generation of an object: idempotent, so Cloud Storage retries it, without
// a cap, until the context ends. Not reported: the loop sees only the failures Cloud Storage
// does not retry, or the end of the same context, after which every attempt fails at once.
func Remove(ctx context.Context, gcs *storage.Client, bucket, name string, gen int64) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = gcs.Bucket(bucket).Object(name).Generation(gen).Delete(ctx); err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// ---- Reported: explicit settings ----

func LaunchTuned(ctx context.Context, image string) error {
	cfg, err := config.LoadDefaultConfig(ctx, config.WithRetryMaxAttempts(5))
	if err != nil {
		return err
	}
	c := ec2.NewFromConfig(cfg)
	return retrygo.Do(func() error {
		_, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(image)}) // related "clients.go:86: outer retry callback" // want `3 attempts around ec2\.Client\.RunInstances, which makes 5 each: up to 15 calls on transient failures; keep one layer`
		return err
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}

func RemoveCapped(ctx context.Context, gcs *storage.Client, bucket, name string, gen int64) error {
	o := gcs.Bucket(bucket).Object(name).If(storage.Conditions{GenerationMatch: gen}).Retryer(storage.WithMaxAttempts(3))
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = o.Delete(ctx); err == nil { // related "clients.go:95: outer retry loop" // want `3 attempts around storage\.ObjectHandle\.Delete, which makes 3 each: up to 9 calls on transient failures; keep one layer`
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// ---- Not reported: the inner layer is switched off ----

func LaunchOnce(ctx context.Context, image string) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	c := ec2.NewFromConfig(cfg, func(o *ec2.Options) { o.RetryMaxAttempts = 1 })
	for attempt := 0; attempt < 3; attempt++ {
		if _, err = c.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(image)}); err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

func LaunchNop(ctx context.Context, image string) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	c := ec2.NewFromConfig(cfg, func(o *ec2.Options) { o.Retryer = aws.NopRetryer{} })
	return retrygo.Do(func() error {
		_, err := c.RunInstances(ctx, &ec2.RunInstancesInput{ImageId: aws.String(image)})
		return err
	}, retrygo.Attempts(3), retrygo.Context(ctx))
}

func RemoveOnce(ctx context.Context, gcs *storage.Client, bucket, name string) error {
	o := gcs.Bucket(bucket).Object(name).Retryer(storage.WithMaxAttempts(1))
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = o.Delete(ctx); err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// RemoveLatest deletes the live object without a precondition: not idempotent, so Cloud
// Storage's default policy sends it once; the loop is the only layer.
func RemoveLatest(ctx context.Context, gcs *storage.Client, bucket, name string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = gcs.Bucket(bucket).Object(name).Delete(ctx); err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return err
}

// ---- Not reported: a policy that retries every operation, until the same context ends ----

// RemoveAnyway deletes the live object with a policy that retries every operation: Cloud
// Storage retries the delete inside each attempt, until ctx ends.
func RemoveAnyway(ctx context.Context, gcs *storage.Client, bucket, name string) error {
	o := gcs.Bucket(bucket).Object(name).Retryer(storage.WithPolicy(storage.RetryAlways))
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = o.Delete(ctx); err == nil {
			return nil
		}
		log.Printf("delete %s/%s, attempt %d: %v", bucket, name, attempt+1, err)
		time.Sleep(jitter(time.Second))
	}
	return err
}

// ---- Reported: each attempt gets a deadline of its own ----

// RemoveBounded gives each attempt ten seconds: Cloud Storage's retries end with each
// attempt's context, and the loop starts them again.
func RemoveBounded(ctx context.Context, gcs *storage.Client, bucket, name string, gen int64) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err = gcs.Bucket(bucket).Object(name).Generation(gen).Delete(actx) // related "clients.go:181: outer retry loop" // want `retries around storage\.ObjectHandle\.Delete, which retries without a cap: unbounded calls; keep one layer`
		cancel()
		if err == nil {
			return nil
		}
		log.Printf("delete %s/%s, attempt %d: %v", bucket, name, attempt+1, err)
		time.Sleep(jitter(time.Second))
	}
	return err
}

// A client method that sends nothing.
func Endpoint(mc *minio.Client) string {
	var url string
	for attempt := 0; attempt < 3; attempt++ {
		if url = mc.EndpointURL(); url != "" {
			break
		}
	}
	return url
}
