import { Card, Flex, Heading, Text } from "@radix-ui/themes";
import type { Viewport } from "#server/modules/capture/model";
import type { SnapshotDto } from "#server/modules/comparisons/model";
import type { FilmstripDto } from "#server/modules/filmstrip/model";
import { filmstripColumns, seconds } from "../../results-data";

interface Props {
  /** Sites in display order with their latest snapshot and recording in this viewport. */
  sites: { targetId: string; label: string; snapshot: SnapshotDto | undefined; filmstrip: FilmstripDto | undefined }[];
  viewport: Viewport;
}

/** The column of a paint time, rounded to the axis's 0.1 s as its label ("FCP 0.2 s") is. */
const markColumn = (columns: { ms: number }[], at: number | null | undefined) =>
  at === null || at === undefined ? -1 : columns.findIndex((c) => c.ms >= Math.round(at / 100) * 100);

/**
 * Each site's page loading, frame by frame on one time axis (as WebPageTest shows it): a column
 * is a moment any of them changed; first contentful and largest contentful paint and visually
 * complete are outlined, and each row names its Speed Index and Total Blocking Time.
 */
export function Filmstrip({ sites, viewport }: Props) {
  const recorded = sites.filter((s) => s.filmstrip && s.filmstrip.frames.length > 0);
  const columns = filmstripColumns(sites.map((s) => ({ targetId: s.targetId, frames: s.filmstrip?.frames ?? [] })));
  return (
    <section aria-label="Filmstrip">
      <Card size="2" style={{ minWidth: 0 }}>
        <Flex direction="column" gap="2">
          <Flex justify="between" align="baseline" gap="3" wrap="wrap">
            <Heading as="h2" size="3">
              Filmstrip
            </Heading>
            <Flex gap="3" align="center">
              <Text size="1" className="di-film-mark-fcp">
                ■ First contentful paint
              </Text>
              <Text size="1" className="di-film-mark-lcp">
                ■ Largest contentful paint
              </Text>
              <Text size="1" className="di-film-mark-vc">
                ■ Visually complete
              </Text>
            </Flex>
          </Flex>
          {recorded.length === 0 ? (
            <Text size="2" color="gray">
              No filmstrip was recorded for the {viewport} captures. Run the analysis again to record one.
            </Text>
          ) : (
            <div className="di-filmstrip-wrap" tabIndex={0} role="group" aria-label={`Filmstrip frames, ${viewport}`}>
              <table className="di-filmstrip" data-viewport={viewport}>
                <thead>
                  <tr>
                    <td />
                    {columns.map((c) => (
                      <th key={c.ms} scope="col">
                        {seconds(c.ms)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {sites.map((site, row) => {
                    const timing = site.snapshot?.extraction?.timing;
                    const fcp = markColumn(columns, timing?.fcpMs);
                    const lcp = markColumn(columns, timing?.lcpMs);
                    const vc = markColumn(columns, timing?.visuallyCompleteMs);
                    const aspect = site.filmstrip
                      ? site.filmstrip.height / site.filmstrip.width
                      : viewport === "desktop"
                        ? 900 / 1440
                        : 844 / 390;
                    return (
                      <tr key={site.targetId} data-testid="filmstrip-row">
                        <th scope="row">
                          <Text as="div" size="2" weight="bold">
                            {site.label}
                          </Text>
                          <Text as="div" size="1" color="gray">
                            FCP {timing?.fcpMs != null ? seconds(timing.fcpMs) : "–"}
                          </Text>
                          <Text as="div" size="1" color="gray">
                            LCP {timing?.lcpMs != null ? seconds(timing.lcpMs) : "–"}
                          </Text>
                          <Text
                            as="div"
                            size="1"
                            color="gray"
                            data-testid="filmstrip-speed-index"
                            title={
                              timing?.measuredBy?.speedIndex.method ??
                              timing?.measuredBy?.speedIndex.reason ??
                              "Not measured for this capture"
                            }
                          >
                            SI {timing?.speedIndexMs != null ? seconds(timing.speedIndexMs) : "–"}
                            {timing?.visuallyCompleteMs != null ? ` · VC ${seconds(timing.visuallyCompleteMs)}` : ""}
                          </Text>
                          <Text
                            as="div"
                            size="1"
                            color="gray"
                            data-testid="filmstrip-tbt"
                            title={timing?.measuredBy?.tbt.method ?? timing?.measuredBy?.tbt.reason ?? "Not measured for this capture"}
                          >
                            TBT {timing?.tbtMs != null ? `${Math.round(timing.tbtMs)} ms` : "–"}
                          </Text>
                          {!site.filmstrip && (
                            <Text as="div" size="1" color="gray">
                              Not recorded
                            </Text>
                          )}
                        </th>
                        {columns.map((c, col) => {
                          const frame = c.frames[row];
                          const marks = [col === fcp ? "fcp" : "", col === lcp ? "lcp" : "", col === vc ? "vc" : ""].filter(Boolean);
                          return (
                            <td key={c.ms}>
                              <span
                                className="di-film-frame"
                                data-mark={marks.join(" ") || undefined}
                                style={{ aspectRatio: `1 / ${aspect.toFixed(4)}` }}
                              >
                                {frame && <img src={frame.url} alt={`${site.label} at ${seconds(c.ms)}`} decoding="async" />}
                              </span>
                              <span className="di-film-marks">
                                {col === fcp && <span className="di-film-mark-fcp">FCP</span>}
                                {col === lcp && <span className="di-film-mark-lcp">LCP</span>}
                                {col === vc && <span className="di-film-mark-vc">VC</span>}
                              </span>
                            </td>
                          );
                        })}
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
        </Flex>
      </Card>
    </section>
  );
}
