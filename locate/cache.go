package locate

import (
	"container/list"
	"sync"
)

// DefaultCacheBytes bounds a Cache whose MaxBytes is zero.
const DefaultCacheBytes = 512 << 20

// Cache keeps the indexes of recently used texts, keyed by the text's
// hash, least recently used out first, within MaxBytes of estimated index
// memory. The zero value is ready to use; it is safe for concurrent use.
type Cache struct {
	// MaxBytes bounds the summed Index.Size of the cached indexes; 0 means
	// DefaultCacheBytes. An index larger than the bound is built, used and
	// not kept.
	MaxBytes int64

	mu    sync.Mutex
	order *list.List // of *cacheEntry, most recent first
	byKey map[string]*list.Element
	bytes int64
	// building holds the keys being built, so concurrent callers for one
	// text wait for one build.
	building map[string]*sync.WaitGroup
}

type cacheEntry struct {
	key string
	ix  *Index
}

// Get returns the index cached under key, or builds it with build, caches
// and returns it.
func (c *Cache) Get(key string, build func() *Index) *Index {
	for {
		c.mu.Lock()
		if c.byKey == nil {
			c.order = list.New()
			c.byKey = map[string]*list.Element{}
			c.building = map[string]*sync.WaitGroup{}
		}
		if el, ok := c.byKey[key]; ok {
			c.order.MoveToFront(el)
			ix := el.Value.(*cacheEntry).ix
			c.mu.Unlock()
			return ix
		}
		if wg, ok := c.building[key]; ok {
			c.mu.Unlock()
			wg.Wait()
			continue
		}
		wg := &sync.WaitGroup{}
		wg.Add(1)
		c.building[key] = wg
		c.mu.Unlock()

		return c.build(key, wg, build)
	}
}

// Len is the number of cached indexes.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.order == nil {
		return 0
	}
	return c.order.Len()
}

func (c *Cache) add(key string, ix *Index) {
	limit := c.MaxBytes
	if limit <= 0 {
		limit = DefaultCacheBytes
	}
	size := ix.Size()
	if size > limit {
		return
	}
	for c.bytes+size > limit && c.order.Len() > 0 {
		old := c.order.Remove(c.order.Back()).(*cacheEntry)
		delete(c.byKey, old.key)
		c.bytes -= old.ix.Size()
	}
	c.byKey[key] = c.order.PushFront(&cacheEntry{key: key, ix: ix})
	c.bytes += size
}

// build runs build for key and caches its index; waiters are released even
// when build panics.
func (c *Cache) build(key string, wg *sync.WaitGroup, build func() *Index) (ix *Index) {
	defer func() {
		c.mu.Lock()
		delete(c.building, key)
		if ix != nil {
			c.add(key, ix)
		}
		c.mu.Unlock()
		wg.Done()
	}()
	return build()
}
