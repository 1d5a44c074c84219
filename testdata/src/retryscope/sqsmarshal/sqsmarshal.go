// Package sqsmarshal builds SQS messages to send as well as receiving them (as watermill-aws
// does): a parameter of the message type may be one it built, so it is no evidence of a
// delivery; the loop over received messages still is.
package sqsmarshal

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
)

func marshal(payload []byte) *types.Message {
	return &types.Message{Body: aws.String(string(payload))}
}

// Not a handler: turns a message this package built into a send request.
func sendInput(ctx context.Context, queueURL string, msg *types.Message) (*sqs.SendMessageInput, error) {
	return &sqs.SendMessageInput{QueueUrl: aws.String(queueURL), MessageBody: msg.Body}, nil
}

func consume(ctx context.Context, c *sqs.Client, in *sqs.ReceiveMessageInput, handle func(*types.Message) error) error { // want consume:`retries: self-retrying client call`
	out, err := c.ReceiveMessage(ctx, in) // want `self-retrying client call`
	if err != nil {
		return err
	}
	for i := range out.Messages { // want `message handler \(SQS\): attempts=unbounded wait=fixed`
		if err := handle(&out.Messages[i]); err != nil {
			continue
		}
		_, _ = c.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: in.QueueUrl, ReceiptHandle: out.Messages[i].ReceiptHandle}) // want `self-retrying client call`
	}
	return nil
}
