package queuepoller

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

type fakeQueue struct {
	throttles int
	calls     int
}

func (f *fakeQueue) ReceiveMessage(ctx context.Context, params *sqs.ReceiveMessageInput, optFns ...func(*sqs.Options)) (*sqs.ReceiveMessageOutput, error) {
	f.calls++
	if f.calls <= f.throttles {
		return nil, &types.OverLimit{}
	}
	return &sqs.ReceiveMessageOutput{Messages: []types.Message{{}}}, nil
}

func (f *fakeQueue) DeleteMessage(ctx context.Context, params *sqs.DeleteMessageInput, optFns ...func(*sqs.Options)) (*sqs.DeleteMessageOutput, error) {
	return &sqs.DeleteMessageOutput{}, nil
}

func TestReceiveRetriesThrottles(t *testing.T) {
	fq := &fakeQueue{throttles: 2}
	p, err := New(context.Background(), "https://sqs.example/q", WithClient(fq))
	if err != nil {
		t.Fatal(err)
	}
	var waited []time.Duration
	p.wait = func(ctx context.Context, d time.Duration) bool { waited = append(waited, d); return true }
	msgs, err := p.Receive(context.Background())
	if err != nil || len(msgs) != 1 || len(waited) != 2 {
		t.Fatalf("Receive = %d messages, %v; waited %v", len(msgs), err, waited)
	}
}
