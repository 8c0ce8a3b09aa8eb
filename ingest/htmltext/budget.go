package htmltext

import "fmt"

// DefaultMaxNodes is the node budget of one page when the operator sets
// none: the tree parser spends about 150 bytes a node (twice when the
// main-content search parses again), so 400,000 nodes keep one page's trees
// near 120 MB. The largest evaluation page has about 40,000.
const DefaultMaxNodes = 400_000

// ErrTooManyNodes is returned (wrapped, and wrapping ErrTooLarge) for a page
// whose tree would hold more nodes than its budget.
var ErrTooManyNodes = fmt.Errorf("html tree over its node budget: %w", ErrTooLarge)

// Limits are an operator's bounds on extracting one page.
type Limits struct {
	// MaxNodes bounds the nodes of the page's tree, which bounds the
	// extraction's memory; 0 means DefaultMaxNodes.
	MaxNodes int
}

func maxNodes(limits []Limits) int {
	if len(limits) > 0 && limits[0].MaxNodes > 0 {
		return limits[0].MaxNodes
	}
	return DefaultMaxNodes
}

// checkNodeBudget fails with ErrTooManyNodes, before any tree is built, when
// the parser would build more than maxNodes nodes (n, as scanTokens counts
// them, not counting the formatting elements it would reopen: those are
// bounded apart, by maxReopened).
func checkNodeBudget(n, maxNodes int) error {
	if n > maxNodes {
		return fmt.Errorf("extract html: more than %d nodes: %w", maxNodes, ErrTooManyNodes)
	}
	return nil
}
