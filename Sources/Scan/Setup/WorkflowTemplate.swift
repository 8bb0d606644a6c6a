/// The GitHub Actions workflow `sentinel init` writes: the scan gate with its SARIF uploaded to
/// code scanning. Its steps are the README's CI recipe's scan job.
enum WorkflowTemplate {
    static func text(for setup: ProjectSetup) -> String {
        """
        # Written by `sentinel init`: `sentinel scan` on every push to \(setup.branch) and every pull request;
        # findings appear under Security -> Code scanning, and one at or above failOn (.sentinel.yml)
        # fails the job. A pull request is scanned against its base commit (--since): only the lines
        # it writes, with the base's .sentinel.yml and suppressions, never its own, and what it changes
        # in them is reported. SENTINEL_IMAGE (Settings -> Variables) names the image built from
        # Sentinel's Containerfile (`make image`), pushed where your runners pull from.
        name: sentinel
        on:
          push:
            branches: [\(setup.branch)]
          pull_request:
        jobs:
          scan:
            runs-on: ubuntu-latest
            container:
              image: ${{ vars.SENTINEL_IMAGE }}
              options: --user 1001 --security-opt unmask=ALL --cap-drop ALL --security-opt no-new-privileges  # the checkout's owner; no privileges (docs/install.md)
            permissions:
              contents: read
              security-events: write                   # for upload-sarif
            env:
              SENTINEL_HOME: /tmp/sentinel             # the OSV database, outside the checkout
            steps:
              - uses: actions/checkout@v4
                with:
                  fetch-depth: 0                       # a pull request's base commit, for --since
              - run: sentinel db update --for .
              # The report goes outside the checkout, emptied first: a pull request cannot plant one to be
              # uploaded when the scan stops before writing its own.
              - id: scan
                run: |
                  rm -f "$RUNNER_TEMP/sentinel.sarif"
                  status=0
                  sentinel scan . --format sarif --output "$RUNNER_TEMP/sentinel.sarif" ${SENTINEL_BASE:+--since "$SENTINEL_BASE"} || status=$?
                  if [ -f "$RUNNER_TEMP/sentinel.sarif" ]; then echo "sarif=$RUNNER_TEMP/sentinel.sarif" >> "$GITHUB_OUTPUT"; fi
                  exit "$status"
                env:
                  SENTINEL_BASE: ${{ github.event.pull_request.base.sha }}   # empty on a push
              - if: always() && steps.scan.outputs.sarif != ''
                uses: github/codeql-action/upload-sarif@v3
                with:
                  sarif_file: ${{ steps.scan.outputs.sarif }}
                  category: sentinel

        """
    }
}
