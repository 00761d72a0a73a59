import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it, vi } from 'vitest'
import { shutDown } from './index'

/**
 * The graceful stop of a server process (docs/decisions/0014-workers.md), with a real HTTP
 * server holding a request in flight and a stand-in for the job runner that records when it is
 * told to stop claiming jobs and when its running jobs are done.
 */
describe('shutDown', () => {
  it('stops claiming jobs at once, lets the request and the job in flight finish, then closes the database', async () => {
    const events: string[] = []
    let answerRequest!: () => void
    const server = http.createServer((_req, res) => {
      events.push('request arrived')
      answerRequest = () => res.end('done')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const answer = new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/slow', agent: false }, (response) => {
          let body = ''
          response.on('data', (chunk: Buffer) => (body += chunk.toString()))
          response.on('end', () => resolve(body))
        })
        .on('error', reject)
    })
    await vi.waitFor(() => expect(events).toContain('request arrived'))

    let finishJob!: () => void
    const background = {
      stop: vi.fn(() => {
        events.push('runner stopping')
        return new Promise<void>((resolve) => {
          finishJob = () => {
            events.push('running job done')
            resolve()
          }
        })
      }),
    }
    const closeDatabase = vi.fn(async () => {
      events.push('database closed')
    })

    const closing = shutDown(server, background, closeDatabase)
    // While the request is still in flight, no new job is claimed any more.
    expect(background.stop).toHaveBeenCalledTimes(1)

    answerRequest()
    expect(await answer).toBe('done')
    await new Promise((resolve) => setTimeout(resolve, 50))
    // The job that was running when the shutdown began still finishes before the database closes.
    expect(closeDatabase).not.toHaveBeenCalled()
    finishJob()
    await closing
    expect(events).toEqual([
      'request arrived',
      'runner stopping',
      'running job done',
      'database closed',
    ])
    expect(server.listening).toBe(false)
  })

  it('waits for the requests in flight when the jobs are done first', async () => {
    let answered = false
    const server = http.createServer((_req, res) => {
      res.once('finish', () => (answered = true))
      setTimeout(() => res.end('late'), 200)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as AddressInfo).port
    const answer = new Promise<string>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, agent: false }, (response) => {
          let body = ''
          response.on('data', (chunk: Buffer) => (body += chunk.toString()))
          response.on('end', () => resolve(body))
        })
        .on('error', reject)
    })
    await new Promise((resolve) => setTimeout(resolve, 50))
    const closeDatabase = vi.fn(async () => {
      expect(answered).toBe(true)
    })
    await shutDown(server, { stop: async () => {} }, closeDatabase)
    expect(closeDatabase).toHaveBeenCalledTimes(1)
    expect(await answer).toBe('late')
  })
})
