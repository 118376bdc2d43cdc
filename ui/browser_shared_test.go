package ui

import (
	"context"
	"flag"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The browser tests share one headless Chromium: starting it is a large
// part of a short test's time. TestMain starts it while the first tests
// run.
// Each test gets a tab in a browser context of its own (its own
// cookies), closed when the test ends; TestMain stops the browser.
var (
	browserOnce sync.Once
	browserCtx  context.Context // the first tab, which holds the browser
	browserStop func()
	browserErr  error
)

func TestMain(m *testing.M) {
	flag.Parse()
	widenParallel()
	var early sync.WaitGroup
	if exe := chromiumPath(); exe != "" && !testing.Short() && mayRunBrowserTests() {
		early.Go(func() { browserOnce.Do(func() { startBrowser(exe) }) })
	}
	code := m.Run()
	early.Wait()
	if browserStop != nil {
		browserStop()
	}
	os.Exit(code)
}

// widenParallel lets every test of the package run at once unless
// -test.parallel is given. The tests are parallel: each has its own store
// and servers, and the browser tests wait on Chromium, not on the CPU of
// this process; with the default of GOMAXPROCS the browser tests would
// queue behind one another and the rest behind them.
func widenParallel() {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		flag.Set("test.parallel", "8")
	}
}

// mayRunBrowserTests reports whether -test.run may select a browser
// test, so that a run of other tests starts no Chromium.
func mayRunBrowserTests() bool {
	run := flag.Lookup("test.run").Value.String()
	return run == "" || strings.Contains(run, "Browser")
}

// browserTab returns a tab of the shared Chromium at exe in a new
// browser context, with a window of windowSize; the test's cleanup
// closes it.
func browserTab(t *testing.T, exe string) context.Context {
	t.Helper()
	browserOnce.Do(func() { startBrowser(exe) })
	if browserErr != nil {
		t.Fatalf("start Chromium: %v", browserErr)
	}
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(windowSize())); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return ctx
}

// startBrowser starts Chromium at exe and sets browserCtx and
// browserStop, or browserErr; browserOnce runs it.
func startBrowser(exe string) {
	w, h := windowSize()
	dir, err := os.MkdirTemp("", "amlscreen-ui-chromium-")
	if err != nil {
		browserErr = err
		return
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(int(w), int(h)),
	)
	ctx, cancel := chromedp.NewContext(actx)
	browserCtx = ctx
	browserStop = func() {
		cancel()
		cancelAlloc()
		os.RemoveAll(dir)
	}
	browserErr = chromedp.Do(ctx) // starts the browser
}

// windowSize is the browser's window: 1366 by 900, the screenshots' size,
// when the tests take screenshots; else as wide (the same layout) and
// 450 high, which halves what Chromium rasterizes on every page (its
// GPU process used 3 CPU-s of the browser tests at 900). Clicks scroll
// their element into view, and the checks read the DOM, not pixels.
func windowSize() (width, height int64) {
	if os.Getenv(screenshotsEnv) != "" {
		return 1366, 900
	}
	return 1366, 450
}

// typeText puts text into the field with id as one text input event, as
// a paste does, rather than three key events a letter: no page of the
// workbench listens for keys, and each key event costs the browser a
// frame.
func typeText(id, text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		if err := chromedp.Do(ctx, chromedp.Focus(chromedp.ID(id))); err != nil {
			return err
		}
		_, err := chromedp.Call(ctx, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}
