// Package schema is a stub of github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema
// (v2.40.1, the parts resources use).
package schema

import "time"

const (
	TimeoutCreate  = "create"
	TimeoutRead    = "read"
	TimeoutUpdate  = "update"
	TimeoutDelete  = "delete"
	TimeoutDefault = "default"
)

type ResourceData struct{ id string }

func (d *ResourceData) Id() string                              { return d.id }
func (d *ResourceData) SetId(v string)                          { d.id = v }
func (d *ResourceData) Get(key string) interface{}              { return nil }
func (d *ResourceData) GetOk(key string) (interface{}, bool)    { return nil, false }
func (d *ResourceData) Set(key string, value interface{}) error { return nil }
func (d *ResourceData) Timeout(key string) time.Duration        { return 20 * time.Minute }
