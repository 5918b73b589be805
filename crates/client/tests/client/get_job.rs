use crate::helpers::{job_view_body, spawn_stub, Answer};
use intake_client::ClientError;

const ID: &str = "0193a4b2-6c1e-7d2f-9a41-3b5c6d7e8f90";

#[tokio::test]
async fn get_job_reads_the_job_with_a_signed_get() {
    let stub = spawn_stub(vec![Answer::Job]).await;

    let job = stub.client().get_job(ID).await.unwrap();

    assert_eq!(serde_json::to_value(&job).unwrap(), job_view_body());
    let requests = stub.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method, "GET");
    assert_eq!(requests[0].target, format!("/v1/affiliate-job/jobs/{ID}"));
    assert!(requests[0].body.is_empty());
    requests[0].verify_signature().unwrap();
}

#[tokio::test]
async fn an_unknown_job_is_a_404_problem_after_one_request() {
    let stub = spawn_stub(vec![Answer::problem(404, "No such job."), Answer::Job]).await;

    let error = stub.client().get_job("nope").await.unwrap_err();

    assert!(matches!(&error, ClientError::Problem { problem, .. } if problem.status == 404));
    assert_eq!(stub.requests().len(), 1);
}

#[tokio::test]
async fn get_job_retries_503_and_dropped_connections() {
    let busy = Answer::problem_retry_after(503, "The store is unavailable.", "0");
    let stub = spawn_stub(vec![busy, Answer::Drop, Answer::Job]).await;

    let job = stub.client().get_job(ID).await.unwrap();

    assert_eq!(job.id, ID);
    let requests = stub.requests();
    assert_eq!(requests.len(), 3);
    for request in &requests {
        request.verify_signature().unwrap();
    }
}
