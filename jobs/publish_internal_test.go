package jobs

import (
	"context"
	"testing"
	"time"
)

// River's Timeout only marks a publish job rescuable: the attempt outlives that deadline (its
// heartbeat guards it) but still ends on a cancellation (shutdown) and at its own budget.
func TestBeyondTimeout(t *testing.T) {
	parent, cancelParent := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancelParent()
	ctx, cancel := beyondTimeout(parent, time.Hour)
	defer cancel()
	<-parent.Done()
	time.Sleep(20 * time.Millisecond)
	if ctx.Err() != nil {
		t.Fatalf("the attempt ended at River's deadline: %v", ctx.Err())
	}

	parent2, cancelParent2 := context.WithCancel(context.Background())
	ctx2, cancel2 := beyondTimeout(parent2, time.Hour)
	defer cancel2()
	cancelParent2()
	select {
	case <-ctx2.Done():
	case <-time.After(time.Second):
		t.Fatal("a cancelled job's attempt did not end")
	}

	ctx3, cancel3 := beyondTimeout(context.Background(), 10*time.Millisecond)
	defer cancel3()
	select {
	case <-ctx3.Done():
	case <-time.After(time.Second):
		t.Fatal("the attempt outlived its budget")
	}
}
