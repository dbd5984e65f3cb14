/// A sleep that ends early when woken: the sending loop waits for its interval, or for enough events.
final class Waker: Sendable {
    private struct State {
        var sleeper: CheckedContinuation<Void, Never>?
        var generation = 0
        var isWoken = false
    }

    private let state = Locked(State())

    /// Sleeps for `duration`, or until ``wake()`` (at once when woken since the last sleep).
    func sleep(for duration: Duration) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let generation = state.withLock { state -> Int? in
                    if state.isWoken {
                        state.isWoken = false
                        return nil
                    }
                    state.sleeper = continuation
                    state.generation += 1
                    return state.generation
                }
                guard let generation else { return continuation.resume() }
                Task {
                    try? await Task.sleep(for: duration)
                    self.resume(generation: generation)
                }
            }
        } onCancel: {
            wake()
        }
    }

    /// Ends the current sleep, or the next one at once.
    func wake() {
        let sleeper = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let sleeper = state.sleeper else {
                state.isWoken = true
                return nil
            }
            state.sleeper = nil
            return sleeper
        }
        sleeper?.resume()
    }

    /// The timer of the sleep numbered `generation`: it ends that sleep only.
    private func resume(generation: Int) {
        let sleeper = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.generation == generation, let sleeper = state.sleeper else { return nil }
            state.sleeper = nil
            return sleeper
        }
        sleeper?.resume()
    }
}
