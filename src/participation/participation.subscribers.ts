import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../common/events/domain-events.js';
import '../quest-events/quest-events.events.js';
import { QuestEventsService } from '../quest-events/quest-events.service.js';
import { ParticipantsRepository } from './participants.repository.js';

/** What participation does when other modules' events happen (and at its own status changes' commit). */
@Injectable()
export class ParticipationSubscribers {
  constructor(domainEvents: DomainEvents, repo: ParticipantsRepository, events: QuestEventsService) {
    // The final scores of a completing event, batch by batch, before its tickets are allocated.
    domainEvents.inTransaction('quest-event.completing', ({ eventId, scoreResourceTypeId, now, scoresBefore, userIds }, em) =>
      repo.syncEventScores(eventId, scoreResourceTypeId, now, scoresBefore, userIds, em),
    );
    // ... and their places in its final standings, batch by batch, as the completion ranks them.
    domainEvents.inTransaction('quest-event.ranked', ({ eventId, userIds, positions, ranks }, em) =>
      repo.setFinalPlaces(eventId, userIds, positions, ranks, em),
    );
    // The caller's cached event state (quest events' lists and reads) goes at every status change's commit.
    domainEvents.afterCommit('participant.status_changed', ({ userId }) => events.forgetCallerState(userId));
  }
}
