package knowledge

// HashiCorp's Terraform plugin SDK (frameworks.md §1): Retry(timeout, f) and RetryContext(ctx,
// timeout, f) call f until it returns nil or NonRetryableError, or the timeout passes: no cap
// on attempts, waits of 500 ms doubling to 10 s without jitter. StateChangeConf's WaitForState
// polls its Refresh field the same way (PollInterval makes the wait fixed) until the timeout.
// v2's helper/resource API is aliases of helper/retry since v2.26.0; v1 has no context.
var TerraformSDK = &Library{
	Name: "hashicorp/terraform-plugin-sdk v1, v2",
	Paths: []string{
		"github.com/hashicorp/terraform-plugin-sdk/helper/resource",
		"github.com/hashicorp/terraform-plugin-sdk/v2/helper/resource",
		"github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry",
	},
	Helpers: []Entry{
		{Names: []string{"Retry"}, Arg: 1, Ctx: -1},
		{Names: []string{"RetryContext"}, Arg: 2, Ctx: 0},
		// WaitForState polls Refresh until the state is a target one; an error from Refresh
		// ends it.
		{Recv: "StateChangeConf", Names: []string{"WaitForState"}, Arg: -1, Field: "Refresh", Config: []int{-1}, Ctx: -1, Poll: true},
		{Recv: "StateChangeConf", Names: []string{"WaitForStateContext"}, Arg: -1, Field: "Refresh", Config: []int{-1}, Ctx: 0, Poll: true},
	},
	Defaults:   Summary{Bound{Kind: BoundNone}, WaitBackoff, DeadlineElapsed},
	FixedWaits: true, // 500 ms doubling to 10 s, or PollInterval: no jitter to turn on
	Settings: map[string]Option{
		"StateChangeConf.PollInterval": {Layer: 1, Wait: WaitFixed, ZeroWait: KeepWait},
	},
	Verdicts: []string{"RetryError"},
}
