// Package queueseam is an SQS worker library (aws-sdk-go v1) that takes its client as an
// interface of its own, a seam for tests: its users hand it sqs.New(sess). Start is given a
// context, yet receives and deletes with the context-free forms, which send with
// context.Background() through the session's HTTP client (no Timeout by default): cancelling
// the context does not end a receive, and a stalled server holds the worker.
package queueseam

import (
	"context"
	"errors"
	"log"
	"time"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/request"
	"github.com/aws/aws-sdk-go/service/sqs"
)

// QueueAPI is what the worker needs of an SQS client.
type QueueAPI interface {
	ReceiveMessage(*sqs.ReceiveMessageInput) (*sqs.ReceiveMessageOutput, error)
	DeleteMessage(*sqs.DeleteMessageInput) (*sqs.DeleteMessageOutput, error)
}

// Handler handles one message; an error leaves it on the queue.
type Handler interface {
	HandleMessage(m *sqs.Message) error
}

type Config struct {
	QueueURL    string
	MaxMessages int64
	WaitSeconds int64
}

type Worker struct {
	client QueueAPI
	cfg    Config
	log    *log.Logger
}

func New(client QueueAPI, cfg Config, logger *log.Logger) *Worker {
	if cfg.MaxMessages == 0 {
		cfg.MaxMessages = 10
	}
	if cfg.WaitSeconds == 0 {
		cfg.WaitSeconds = 20
	}
	return &Worker{client: client, cfg: cfg, log: logger}
}

// Start receives until ctx ends.
func (w *Worker) Start(ctx context.Context, h Handler) {
	for {
		select {
		case <-ctx.Done():
			w.log.Printf("worker: stopping: %v", ctx.Err())
			return
		default:
		}
		out, err := w.client.ReceiveMessage(&sqs.ReceiveMessageInput{ // want `SQS\.ReceiveMessage takes no context, so a stalled server hangs this call; use ReceiveMessageWithContext with ctx`
			QueueUrl:            aws.String(w.cfg.QueueURL),
			MaxNumberOfMessages: aws.Int64(w.cfg.MaxMessages),
			WaitTimeSeconds:     aws.Int64(w.cfg.WaitSeconds),
		})
		if err != nil {
			w.log.Printf("worker: receive: %v", err)
			time.Sleep(time.Second)
			continue
		}
		for _, m := range out.Messages {
			if err := w.handle(m, h); err != nil {
				w.log.Printf("worker: message %s: %v", *m.MessageId, err)
			}
		}
	}
}

func (w *Worker) handle(m *sqs.Message, h Handler) error {
	if err := h.HandleMessage(m); err != nil {
		return err
	}
	_, err := w.client.DeleteMessage(&sqs.DeleteMessageInput{QueueUrl: aws.String(w.cfg.QueueURL), ReceiptHandle: m.ReceiptHandle}) // want `SQS\.DeleteMessage takes no context, so a stalled server hangs this call; use DeleteMessageWithContext$`
	return err
}

// DrainerAPI is the context form of the client, as a seam.
type DrainerAPI interface {
	ReceiveMessageWithContext(aws.Context, *sqs.ReceiveMessageInput, ...request.Option) (*sqs.ReceiveMessageOutput, error)
}

// Drain empties the queue at shutdown, with a context of its own.
func Drain(q DrainerAPI, url string, logger *log.Logger) int {
	n := 0
	for {
		out, err := q.ReceiveMessageWithContext(context.Background(), &sqs.ReceiveMessageInput{QueueUrl: aws.String(url)}) // related "queueseam.go:96: context.Background() has no deadline" // want `SQS\.ReceiveMessageWithContext.s context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
		if err != nil || len(out.Messages) == 0 {
			logger.Printf("drain: %d messages, last error %v", n, err)
			return n
		}
		n += len(out.Messages)
	}
}

// DrainWithin is Drain with a deadline: not reported.
func DrainWithin(ctx context.Context, q DrainerAPI, url string, d time.Duration) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	n := 0
	for {
		out, err := q.ReceiveMessageWithContext(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(url)})
		if err != nil {
			return n, err
		}
		if len(out.Messages) == 0 {
			return n, nil
		}
		n += len(out.Messages)
	}
}

// ---- Not an SDK call: an interface of the package's own types, one the SDK's client cannot
// fill (it has a method the client lacks), and one the package fills with its own
// implementation ----

// PooledQueue is filled by a pool of clients, which the SDK's client is not.
type PooledQueue interface {
	ReceiveMessage(*sqs.ReceiveMessageInput) (*sqs.ReceiveMessageOutput, error)
	Release()
}

func Peek(q PooledQueue, url string) int {
	defer q.Release()
	out, err := q.ReceiveMessage(&sqs.ReceiveMessageInput{QueueUrl: aws.String(url)})
	if err != nil {
		return 0
	}
	return len(out.Messages)
}

type Job struct{ ID string }

type JobSource interface {
	ReceiveMessage(*Job) (*Job, error)
}

type Spool struct {
	src JobSource
	log *log.Logger
}

func (s *Spool) Next(ctx context.Context) (*Job, error) {
	for {
		j, err := s.src.ReceiveMessage(&Job{})
		if err == nil {
			return j, nil
		}
		s.log.Printf("spool: %v", err)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// Batcher is the package's own queue in memory, the default of a Relay.
type Batcher interface {
	ReceiveMessage(*sqs.ReceiveMessageInput) (*sqs.ReceiveMessageOutput, error)
}

type memQueue struct{ msgs []*sqs.Message }

func (q *memQueue) ReceiveMessage(*sqs.ReceiveMessageInput) (*sqs.ReceiveMessageOutput, error) {
	if len(q.msgs) == 0 {
		return nil, errors.New("empty")
	}
	out := &sqs.ReceiveMessageOutput{Messages: q.msgs}
	q.msgs = nil
	return out, nil
}

type Relay struct{ q Batcher }

func NewRelay(q Batcher) *Relay {
	if q == nil {
		q = &memQueue{}
	}
	return &Relay{q: q}
}

func (r *Relay) Drain() int {
	out, err := r.q.ReceiveMessage(&sqs.ReceiveMessageInput{})
	if err != nil {
		return 0
	}
	return len(out.Messages)
}
