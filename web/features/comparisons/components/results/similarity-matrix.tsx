import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { Viewport } from "#server/modules/capture/model";
import type { DiffDto, TargetDto } from "#server/modules/comparisons/model";
import { asPercent, heatColor, type Pair, similarityMatrix } from "../../results-data";

/** One cell's score (0..1) and, for the roll-up, what it is a mean of. */
export interface MatrixScore {
  pair: Pair;
  score: number | undefined;
  note?: string;
}

interface Props {
  targets: TargetDto[];
  diffs: DiffDto[];
  viewport: Viewport;
  pair: Pair;
  onPairChange(p: Pair): void;
  /** Scores other than each pair's newest diff (the site roll-up), with the heading and caption that say what they are. */
  scores?: { rows: (MatrixScore | null)[][]; title: string; caption: string; testId: string };
}

const samePair = (a: Pair, b: Pair) => (a[0] === b[0] && a[1] === b[1]) || (a[0] === b[1] && a[1] === b[0]);

/** Overall similarity of every pair of sites, as a heat map; a cell opens that pair above. */
export function SimilarityMatrix({ targets, diffs, viewport, pair, onPairChange, scores }: Props) {
  const rows: (MatrixScore | null)[][] =
    scores?.rows ??
    similarityMatrix(targets, diffs, viewport).map((cells) => cells.map((c) => c && { pair: c.pair, score: c.diff?.overallSimilarity }));
  const headingId = scores ? `${scores.testId}-heading` : "matrix-heading";
  const href = (p: Pair) => `?${new URLSearchParams({ viewport, a: p[0], b: p[1] })}`;
  return (
    <Card size="2" style={{ minWidth: 0 }}>
      <Flex direction="column" gap="2">
        <Heading as="h2" size="3" id={headingId}>
          {scores?.title ?? "Similarity matrix"}
        </Heading>
        {scores && (
          <Text size="1" color="gray">
            {scores.caption}
          </Text>
        )}
        <div className="di-matrix-wrap">
          <table className="di-matrix" aria-labelledby={headingId} data-testid={scores?.testId ?? "similarity-matrix"}>
            <caption className="di-visually-hidden">
              {scores?.caption ?? `Overall similarity of each pair of sites, ${viewport}.`} Choose a cell to compare that pair.
            </caption>
            <thead>
              <tr>
                <td />
                {targets.map((t) => (
                  <th key={t.id} scope="col">
                    {t.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((cells, i) => (
                <tr key={targets[i]!.id}>
                  <th scope="row">{targets[i]!.label}</th>
                  {cells.map((cell, j) => {
                    if (!cell)
                      return (
                        <td key={j} className="di-diagonal">
                          <span aria-label="Same site">—</span>
                        </td>
                      );
                    const score = cell.score;
                    const name = `${targets[i]!.label} vs ${targets[j]!.label}: ${score === undefined ? "not scored" : `${asPercent(score)} overall similarity`}${cell.note ? ` (${cell.note})` : ""}`;
                    return (
                      <td key={j} style={{ background: score === undefined ? "var(--gray-a3)" : heatColor(score) }}>
                        <a
                          href={href(cell.pair)}
                          aria-label={name}
                          title={name}
                          aria-current={samePair(cell.pair, pair) ? "true" : undefined}
                          onClick={(e) => {
                            e.preventDefault();
                            onPairChange(cell.pair);
                          }}
                        >
                          {score === undefined ? "n/a" : asPercent(score)}
                        </a>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Flex align="center" gap="2" aria-hidden>
          <Text size="1" color="gray">
            Different
          </Text>
          <span
            style={{
              width: 96,
              height: 8,
              borderRadius: 4,
              background: `linear-gradient(90deg, ${heatColor(0)}, ${heatColor(0.5)}, ${heatColor(1)})`,
            }}
          />
          <Text size="1" color="gray">
            Alike
          </Text>
        </Flex>
      </Flex>
    </Card>
  );
}
