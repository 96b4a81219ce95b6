import "#tests/support/dom";
import { afterEach, beforeEach, describe, expect, jest, mock, test } from "bun:test";
const { act, fireEvent, waitFor } = await import("@testing-library/react");
const { ComparisonList } = await import("./components/comparison-list");
const { ComparisonHeader } = await import("./components/comparison-header");
const { TargetList } = await import("./components/target-list");
const { ProgressCard } = await import("./components/progress-card");
const { ComparisonDetail } = await import("./components/comparison-detail");
const { POLL_INTERVAL_MS } = await import("./use-comparison-detail");
const { applyComparisonMessage, useComparisonLive } = await import("./store");
const { $, comparison, mockFetch, renderUi, target } = await import("./test-utils");

let restore = () => {};
afterEach(() => restore());
beforeEach(() => useComparisonLive.setState({ byId: {} }));

describe("Your Comparisons list", () => {
  test("skeleton while loading", () => {
    renderUi(<ComparisonList comparisons={null} selectedId={null} onSelect={() => {}} />);
    expect($().getByText("Your Comparisons")).toBeTruthy();
    expect($().getByTestId("comparison-skeleton").getAttribute("aria-busy")).toBe("true");
    expect($().queryByText("No comparisons yet. Create your first one above!")).toBeNull();
  });

  test("empty text when there are none", () => {
    renderUi(<ComparisonList comparisons={[]} selectedId={null} onSelect={() => {}} />);
    expect($().getByText("No comparisons yet. Create your first one above!")).toBeTruthy();
    expect($().queryByTestId("comparison-skeleton")).toBeNull();
  });

  test("items show name, status badge and description; clicking selects", () => {
    const onSelect = mock((_id: string) => {});
    renderUi(
      <ComparisonList
        comparisons={[comparison(), comparison({ id: "c2", name: "Landing pages", description: null, status: "completed" })]}
        selectedId="c1"
        onSelect={onSelect}
      />,
    );
    expect($().getByText("Who converts better")).toBeTruthy();
    const done = $().getByText("completed");
    expect(done.getAttribute("data-accent-color")).toBe("green");
    expect($().getByText("pending").getAttribute("data-accent-color")).toBe("gray");
    expect(
      $()
        .getByRole("button", { name: /Checkout showdown/ })
        .getAttribute("aria-pressed"),
    ).toBe("true");
    fireEvent.click($().getByRole("button", { name: /Landing pages/ }));
    expect(onSelect).toHaveBeenCalledWith("c2");
  });
});

describe("start and results buttons (spec §4)", () => {
  const startButton = () => $().getByRole("button", { name: /Start Analysis|Running\.\.\./ }) as HTMLButtonElement;

  test("disabled with fewer than 2 targets", () => {
    renderUi(<ComparisonHeader comparison={comparison()} targetCount={1} starting={false} onStart={() => {}} onConsent={() => {}} />);
    expect(startButton().textContent).toContain("Start Analysis");
    expect(startButton().disabled).toBe(true);
  });

  test("enabled with 2 targets when not running; click starts", () => {
    const onStart = mock(() => {});
    renderUi(<ComparisonHeader comparison={comparison()} targetCount={2} starting={false} onStart={onStart} onConsent={() => {}} />);
    expect(startButton().disabled).toBe(false);
    fireEvent.click(startButton());
    expect(onStart).toHaveBeenCalledTimes(1);
  });

  test("reads Running... and is disabled while running", () => {
    renderUi(
      <ComparisonHeader
        comparison={comparison({ status: "running" })}
        targetCount={3}
        starting={false}
        onStart={() => {}}
        onConsent={() => {}}
      />,
    );
    expect(startButton().textContent).toContain("Running...");
    expect(startButton().disabled).toBe(true);
    expect($().getByText("running").getAttribute("data-accent-color")).toBe("blue");
  });

  test("View Results is a link only when completed", () => {
    const first = renderUi(
      <ComparisonHeader
        comparison={comparison({ status: "failed" })}
        targetCount={2}
        starting={false}
        onStart={() => {}}
        onConsent={() => {}}
      />,
    );
    expect(($().getByRole("button", { name: /View Results/ }) as HTMLButtonElement).disabled).toBe(true);
    expect($().getByText("failed").getAttribute("data-accent-color")).toBe("red");
    first.unmount();
    renderUi(
      <ComparisonHeader
        comparison={comparison({ status: "completed" })}
        targetCount={2}
        starting={false}
        onStart={() => {}}
        onConsent={() => {}}
      />,
    );
    expect(
      $()
        .getByRole("link", { name: /View Results/ })
        .getAttribute("href"),
    ).toBe("/comparison/c1/view");
  });
});

describe("cookie-banner policy", () => {
  test("shows the comparison's and reports a new one", async () => {
    const onConsent = mock(() => {});
    renderUi(
      <ComparisonHeader
        comparison={comparison({ consent: "keep" })}
        targetCount={2}
        starting={false}
        onStart={() => {}}
        onConsent={onConsent}
      />,
    );
    const trigger = $().getByRole("combobox", { name: "Cookie banners" });
    expect(trigger.textContent).toBe("Leave on screen");
    fireEvent.pointerDown(trigger, { button: 0, ctrlKey: false, pointerType: "mouse" });
    fireEvent.click(await $().findByRole("option", { name: "Reject (least tracking)" }));
    expect(onConsent).toHaveBeenCalledWith("reject");
  });
});

describe("Websites in Comparison", () => {
  test("count, hint and empty text", () => {
    renderUi(<TargetList targets={[]} canDelete onDelete={() => {}} />);
    expect($().getByText("Websites in Comparison")).toBeTruthy();
    expect($().getByLabelText("0 websites")).toBeTruthy();
    expect($().getByText("(Add at least 2 websites to run comparison)")).toBeTruthy();
    expect($().getByText("No websites added yet. Add your first competitor website above to get started.")).toBeTruthy();
  });

  test("hint goes at 2; delete is disabled while running", () => {
    const onDelete = mock(() => {});
    renderUi(<TargetList targets={[target("t1", "Alpha"), target("t2", "Beta")]} canDelete={false} onDelete={onDelete} />);
    expect($().queryByText("(Add at least 2 websites to run comparison)")).toBeNull();
    expect($().getByLabelText("2 websites")).toBeTruthy();
    const del = $().getByRole("button", { name: "Remove Alpha" }) as HTMLButtonElement;
    expect(del.disabled).toBe(true);
  });
});

test("progress card shows pages done of total and the stage, not a fixed 33%", () => {
  renderUi(<ProgressCard progress={{ done: 3, total: 8, stage: "Capturing Beta (mobile)" }} />);
  expect($().getByText("Analysis in Progress")).toBeTruthy();
  expect($().getByTestId("progress-count").textContent).toBe("3 of 8 pages done · 38%");
  expect($().getByTestId("progress-stage").textContent).toBe("Capturing Beta (mobile)");
  expect($().getByRole("progressbar").getAttribute("aria-valuenow")).toBe("38");
});

describe("detail keeps itself current", () => {
  const two = [target("t1", "Alpha"), target("t2", "Beta")];

  test("start posts, toasts, reloads comparison and targets", async () => {
    let started = false;
    const f = mockFetch({
      "POST /api/comparisons/c1/start": () => {
        started = true;
        return { status: 202, json: { ok: true } };
      },
      "GET /api/comparisons/c1": () => ({ json: comparison({ status: started ? "running" : "pending", targetCount: 2 }) }),
      "GET /api/comparisons/c1/targets": () => ({ json: two.map((t) => ({ ...t, status: started ? "capturing" : "pending" })) }),
    });
    restore = f.restore;
    renderUi(<ComparisonDetail id="c1" initial={{ comparison: comparison({ targetCount: 2 }), targets: two }} onChange={() => {}} />);
    fireEvent.click($().getByRole("button", { name: /Start Analysis/ }));
    expect(await $().findByText("Comparison Started")).toBeTruthy();
    await waitFor(() => expect($().getByRole("button", { name: /Running\.\.\./ })).toBeTruthy());
    expect($().getByText("Analysis in Progress")).toBeTruthy();
    expect($().getAllByText("capturing")).toHaveLength(2);
    expect(f.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      "POST /api/comparisons/c1/start",
      "GET /api/comparisons/c1",
      "GET /api/comparisons/c1/targets",
    ]);
  });

  test("a failed start shows the server's message", async () => {
    const f = mockFetch({ "POST /api/comparisons/c1/start": { status: 409, json: { error: "This comparison is already running" } } });
    restore = f.restore;
    renderUi(<ComparisonDetail id="c1" initial={{ comparison: comparison(), targets: two }} onChange={() => {}} />);
    fireEvent.click($().getByRole("button", { name: /Start Analysis/ }));
    expect(await $().findByText("Failed to Start")).toBeTruthy();
    expect($().getByText("This comparison is already running")).toBeTruthy();
  });

  test("pushed progress shows at once; completion reloads without a manual reload", async () => {
    const f = mockFetch({
      "GET /api/comparisons/c1": { json: comparison({ status: "completed", targetCount: 2 }) },
      "GET /api/comparisons/c1/targets": { json: two.map((t) => ({ ...t, status: "completed" })) },
    });
    restore = f.restore;
    const onChange = mock(() => {});
    renderUi(
      <ComparisonDetail
        id="c1"
        initial={{ comparison: comparison({ status: "running", progress: { done: 0, total: 4, stage: "Queued" } }), targets: two }}
        onChange={onChange}
      />,
    );
    expect($().getByTestId("progress-count").textContent).toBe("0 of 4 pages done · 0%");
    act(() => {
      applyComparisonMessage({
        type: "COMPARISON_PROGRESS",
        payload: {
          comparisonId: "c1",
          status: "running",
          progress: { done: 3, total: 4, stage: "Capturing Beta" },
          targetId: "t1",
          targetStatus: "completed",
        },
      });
    });
    expect($().getByTestId("progress-count").textContent).toBe("3 of 4 pages done · 75%");
    expect($().getByText("completed")).toBeTruthy(); // Alpha's badge
    expect(f.calls).toHaveLength(0);

    act(() => {
      applyComparisonMessage({ type: "COMPARISON_STATUS", payload: { comparisonId: "c1", status: "completed", progress: null } });
    });
    await waitFor(() => expect($().getByRole("link", { name: /View Results/ })).toBeTruthy());
    expect($().queryByText("Analysis in Progress")).toBeNull();
    expect(f.calls.map((c) => c.path).sort()).toEqual(["/api/comparisons/c1", "/api/comparisons/c1/targets"]);
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ status: "completed" }));
    expect(useComparisonLive.getState().byId.c1).toBeUndefined();
  });

  test("without a socket, a 2 s poll while running notices completion", async () => {
    let polls = 0;
    const f = mockFetch({
      "GET /api/comparisons/c1": () => {
        polls++;
        return {
          json: comparison({ status: polls >= 2 ? "completed" : "running", progress: { done: polls, total: 4, stage: "Capturing" } }),
        };
      },
      "GET /api/comparisons/c1/targets": { json: two },
    });
    restore = f.restore;
    expect(POLL_INTERVAL_MS).toBe(2000);
    jest.useFakeTimers();
    try {
      renderUi(<ComparisonDetail id="c1" initial={{ comparison: comparison({ status: "running" }), targets: two }} onChange={() => {}} />);
      expect(f.calls).toHaveLength(0);
      await act(async () => {
        jest.advanceTimersByTime(POLL_INTERVAL_MS - 1);
      });
      expect(f.calls).toHaveLength(0);
      await act(async () => {
        jest.advanceTimersByTime(1);
      });
      expect(polls).toBe(1);
      expect($().getByTestId("progress-count").textContent).toBe("1 of 4 pages done · 25%");
      await act(async () => {
        jest.advanceTimersByTime(POLL_INTERVAL_MS);
      });
      expect(polls).toBe(2);
      expect($().getByRole("link", { name: /View Results/ })).toBeTruthy();
      await act(async () => {
        jest.advanceTimersByTime(POLL_INTERVAL_MS * 3);
      });
      expect(polls).toBe(2); // polling stops once it is no longer running
    } finally {
      jest.useRealTimers();
    }
  });
});
