package longpoll

import (
	"encoding/json"
	"errors"
	"fmt"
)

// ItemError is the server's answer for one item of a batch it could not apply.
type ItemError struct {
	Item int
	Msg  string
}

func (e *ItemError) Error() string { return fmt.Sprintf("item %d: %s", e.Item, e.Msg) }

// Batch reads the results of a batch the server applies item by item.
type Batch struct {
	bot     *Bot
	id      string
	pending int
	err     error
}

func (b *Batch) next() error {
	resp, err := b.bot.client.Get(b.bot.api + "/batches/" + b.id + "/next")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		Item  int    `json:"item"`
		Error string `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return err
	}
	b.pending--
	if out.Error != "" {
		return &ItemError{Item: out.Item, Msg: out.Error}
	}
	return nil
}

// Close reads the results still pending: an item the server refused is recorded and the next
// read goes on; any other failure ends the drain. Not reported: it reads on, it does not retry.
func (b *Batch) Close() error {
	for b.pending > 0 {
		if err := b.next(); err != nil {
			b.err = err
			var itemErr *ItemError
			if !errors.As(err, &itemErr) {
				break
			}
		}
	}
	return b.err
}
