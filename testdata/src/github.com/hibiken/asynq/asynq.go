// Package asynq is a stub of github.com/hibiken/asynq (v0.26.0, public signatures only).
package asynq

import "context"

type ResultWriter struct{ id string }

func (w *ResultWriter) TaskID() string                 { return w.id }
func (w *ResultWriter) Write(data []byte) (int, error) { return len(data), nil }

type Task struct {
	typename string
	payload  []byte
	w        *ResultWriter
}

func NewTask(typename string, payload []byte, opts ...Option) *Task {
	return &Task{typename: typename, payload: payload}
}
func (t *Task) Type() string                { return t.typename }
func (t *Task) Payload() []byte             { return t.payload }
func (t *Task) ResultWriter() *ResultWriter { return t.w }

type Option interface{}

type Handler interface {
	ProcessTask(context.Context, *Task) error
}

type HandlerFunc func(context.Context, *Task) error

func (fn HandlerFunc) ProcessTask(ctx context.Context, task *Task) error { return fn(ctx, task) }

type ServeMux struct{}

func NewServeMux() *ServeMux                                                                { return &ServeMux{} }
func (mux *ServeMux) Handle(pattern string, handler Handler)                                {}
func (mux *ServeMux) HandleFunc(pattern string, handler func(context.Context, *Task) error) {}

func GetTaskID(ctx context.Context) (id string, ok bool) { return "", false }

var SkipRetry error

type Client struct{}

func (c *Client) EnqueueContext(ctx context.Context, task *Task, opts ...Option) (*TaskInfo, error) {
	return &TaskInfo{}, nil
}

type TaskInfo struct{ ID string }
