// Package queuespin is an SQS poller (aws-sdk-go v1) that takes its client as an interface of
// its own, a seam for tests; its users hand it sqs.New(sess). When a receive fails (a queue
// that does not exist, credentials refused, the network down), the loop logs and receives
// again at once: a failing dependency gets a request as fast as the worker can send one.
package queuespin

import (
	"context"
	"log"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/service/sqs"
)

type ReceiverAPI interface {
	ReceiveMessage(*sqs.ReceiveMessageInput) (*sqs.ReceiveMessageOutput, error)
	DeleteMessage(*sqs.DeleteMessageInput) (*sqs.DeleteMessageOutput, error)
}

type HandlerFunc func(m *sqs.Message) error

type Poller struct {
	Client   ReceiverAPI
	QueueURL string
	Log      *log.Logger
}

// Run polls until ctx ends.
func (p *Poller) Run(ctx context.Context, h HandlerFunc) {
	for { // related "queuespin.go:30: long-running loop" // want `long-running loop goes round at once when its remote call fails: it spins against a failing dependency`
		select {
		case <-ctx.Done():
			p.Log.Println("poller: stopped")
			return
		default:
		}
		out, err := p.Client.ReceiveMessage(&sqs.ReceiveMessageInput{
			QueueUrl:            aws.String(p.QueueURL),
			MaxNumberOfMessages: aws.Int64(10),
			WaitTimeSeconds:     aws.Int64(20),
		})
		if err != nil {
			p.Log.Println(err)
			continue
		}
		for _, m := range out.Messages {
			if err := h(m); err != nil {
				p.Log.Printf("poller: handler: %v", err)
				continue
			}
			if _, err := p.Client.DeleteMessage(&sqs.DeleteMessageInput{QueueUrl: aws.String(p.QueueURL), ReceiptHandle: m.ReceiptHandle}); err != nil {
				p.Log.Printf("poller: delete: %v", err)
			}
		}
	}
}
