import ArgumentParser

/// `fleet results --since job|previous`: compare with this job's scan, or with the previous scan
/// of the branch. Not a job id nor `previous` is ArgumentParser's usage error.
enum ResultsBaseline: ExpressibleByArgument, Sendable {
    case job(Int64)
    case previous

    init?(argument: String) {
        if argument == "previous" {
            self = .previous
        } else if let id = JobID(argument: argument) {
            self = .job(id.value)
        } else {
            return nil
        }
    }

    /// The job compared with; nil for the previous scan of the branch.
    var job: Int64? {
        switch self {
        case .job(let id): id
        case .previous: nil
        }
    }
}
