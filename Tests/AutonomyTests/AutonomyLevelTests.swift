import Autonomy
import Heal
import Testing

@Suite struct AutonomyLevelTests {
    @Test func levelsAreOrderedFromObserverToActor() {
        #expect(AutonomyLevel.observer < .proposer)
        #expect(AutonomyLevel.proposer < .actor)
        #expect([AutonomyLevel.actor, .observer, .proposer].min() == .observer)
    }

    @Test func everyHealActorHasAnActionClass() {
        #expect(ActorKind.allCases.map { ActionClass($0).rawValue } == ActorKind.allCases.map(\.rawValue))
    }
}
