! Test of the Fortran module `batcheig` (ctest: fortran_module).
!
! Exercises both layers on the host backend: the bind(C) interfaces (handle,
! params setters/getters, workspace queries, a raw call with user workspace)
! and the wrappers batcheig_geev / batcheig_syevj / batcheig_heevj in all four
! precisions (residuals ||A v - lambda v|| / (n ||A|| eps) below a
! threshold), lda > n, both uplo, Jacobi diagnostics, a NaN matrix inside a
! batch, quick returns, and the errors the wrappers report (non-contiguous
! arrays, wrong shapes, bad jobz, a status from C); the streaming params and
! the device list (batcheig_set_devices / batcheig_get_devices), which a
! host-backend handle does not support.
! Output is list-directed: formatted I/O in libgfortran trips
! AddressSanitizer's strict_string_checks, which the asan preset sets.
program test_fortran
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: int64
  use batcheig
  implicit none

  integer, parameter :: dp = c_double, sp = c_float
  integer, parameter :: n = 5, ld = 7, nb = 4
  real(dp), parameter :: threshold = 30.0_dp
  integer :: failures = 0
  integer(int64) :: seed = 12345  ! Park-Miller generator, 64-bit products
  type(c_ptr) :: h

  call expect(batcheigCreateWithBackend(h, BATCHEIG_BACKEND_HOST) == BATCHEIG_STATUS_SUCCESS, &
      'create host handle')

  call test_info_and_params()
  call test_streaming_and_devices()
  call test_geev_d()
  call test_geev_s()
  call test_geev_z()
  call test_geev_c()
  call test_geev_raw()
  call test_syevj_d()
  call test_syevj_s()
  call test_heevj_z()
  call test_heevj_c()
  call test_nonfinite()
  call test_quick_returns()
  call test_errors()

  call expect(batcheigDestroy(h) == BATCHEIG_STATUS_SUCCESS, 'destroy handle')
  if (failures > 0) then
    print *, 'FAILED: ', failures, ' check(s)'
    error stop 1
  end if
  print *, 'all Fortran module checks passed'

contains

  subroutine expect(cond, what)
    logical, intent(in) :: cond
    character(len=*), intent(in) :: what
    if (.not. cond) then
      failures = failures + 1
      print *, 'FAIL: ', what
    end if
  end subroutine

  ! Deterministic values in [-1, 1).
  real(dp) function rnd()
    seed = modulo(seed * 16807_int64, 2147483647_int64)
    rnd = 2.0_dp * real(seed, dp) / 2147483647.0_dp - 1.0_dp
  end function

  ! max_j ||A v_j - lambda_j v_j||_2 / (n ||A||_F eps) and max_j | ||v_j|| - 1 | / eps
  ! (left = .true.: u^H A = lambda u^H, i.e. A^H u = conj(lambda) u).
  real(dp) function ratio(a, w, v, eps, left)
    complex(dp), intent(in) :: a(:, :), w(:), v(:, :)
    real(dp), intent(in) :: eps
    logical, intent(in) :: left
    complex(dp) :: r(size(a, 1))
    real(dp) :: anorm
    integer :: j, m
    m = size(a, 1)
    anorm = max(sqrt(sum(abs(a)**2)), tiny(1.0_dp))
    ratio = 0
    do j = 1, m
      if (left) then
        r = matmul(conjg(transpose(a)), v(:, j)) - conjg(w(j)) * v(:, j)
      else
        r = matmul(a, v(:, j)) - w(j) * v(:, j)
      end if
      ratio = max(ratio, sqrt(sum(abs(r)**2)) / (m * anorm * eps), &
          abs(sqrt(sum(abs(v(:, j))**2)) - 1.0_dp) / eps / m)
    end do
  end function

  ! LAPACK packing of real eigenvectors to complex columns.
  function unpack(vp, wi) result(v)
    real(dp), intent(in) :: vp(:, :), wi(:)
    complex(dp) :: v(size(vp, 1), size(wi))
    integer :: j
    do j = 1, size(wi)
      if (wi(j) == 0) then
        v(:, j) = vp(:, j)
      else if (wi(j) > 0) then
        v(:, j) = cmplx(vp(:, j), vp(:, j + 1), dp)
      else
        v(:, j) = cmplx(vp(:, j - 1), -vp(:, j), dp)
      end if
    end do
  end function

  ! Full Hermitian matrix from one triangle (diagonal imaginary parts dropped).
  function herm(a, upper) result(f)
    complex(dp), intent(in) :: a(:, :)
    logical, intent(in) :: upper
    complex(dp) :: f(size(a, 1), size(a, 1))
    integer :: i, j, m
    m = size(a, 1)
    do j = 1, m
      do i = 1, m
        if (i == j) then
          f(i, j) = real(a(i, j), dp)
        else if ((i > j) .neqv. upper) then
          f(i, j) = a(i, j)
        else
          f(i, j) = conjg(a(j, i))
        end if
      end do
    end do
  end function

  subroutine test_info_and_params()
    integer(c_int) :: version, ival, backend
    real(c_double) :: tol
    type(c_ptr) :: p, s, ps, pr, stream
    integer(c_int), target :: sw(3)
    real(c_double), target :: rs(3)
    call expect(batcheigGetVersion(version) == BATCHEIG_STATUS_SUCCESS, 'GetVersion')
    call expect(version / 100 == BATCHEIG_VERSION_MAJOR * 100 + BATCHEIG_VERSION_MINOR, &
        'library major.minor matches the module')
    call expect(batcheig_status_string(BATCHEIG_STATUS_SUCCESS) /= '', 'status string')
    call expect(batcheigGetBackend(h, backend) == BATCHEIG_STATUS_SUCCESS .and. &
        backend == BATCHEIG_BACKEND_HOST, 'GetBackend')
    call expect(batcheigSetStream(h, c_null_ptr) == BATCHEIG_STATUS_SUCCESS, 'SetStream')
    call expect(batcheigGetStream(h, stream) == BATCHEIG_STATUS_SUCCESS .and. &
        .not. c_associated(stream), 'GetStream')
    call expect(batcheigGetErrorArgument(h, ival) == BATCHEIG_STATUS_SUCCESS .and. ival == 0, &
        'GetErrorArgument')

    call expect(batcheigCreateParams(p) == BATCHEIG_STATUS_SUCCESS, 'CreateParams')
    call expect(batcheigParamsSetTolerance(p, 1.0e-10_dp) == 0 .and. &
        batcheigParamsGetTolerance(p, tol) == 0 .and. tol == 1.0e-10_dp, 'tolerance')
    call expect(batcheigParamsSetMaxIterations(p, 77) == 0 .and. &
        batcheigParamsGetMaxIterations(p, ival) == 0 .and. ival == 77, 'max iterations')
    call expect(batcheigParamsSetMaxIterations(p, -1) == BATCHEIG_STATUS_INVALID_VALUE, &
        'negative max iterations')
    call expect(batcheigParamsSetAlgorithm(p, BATCHEIG_ALG_JACOBI_HOST_BLOCK) == 0 .and. &
        batcheigParamsGetAlgorithm(p, ival) == 0 .and. ival == BATCHEIG_ALG_JACOBI_HOST_BLOCK, &
        'algorithm')
    call expect(batcheigParamsSetMaxSweeps(p, 12) == 0 .and. &
        batcheigParamsGetMaxSweeps(p, ival) == 0 .and. ival == 12, 'max sweeps')
    call expect(batcheigParamsSetSortEigenvalues(p, 0) == 0 .and. &
        batcheigParamsGetSortEigenvalues(p, ival) == 0 .and. ival == 0, 'sort')
    call expect(batcheigParamsSetJacobiOutputs(p, c_loc(sw), c_loc(rs)) == 0 .and. &
        batcheigParamsGetJacobiOutputs(p, ps, pr) == 0 .and. c_associated(ps, c_loc(sw)) .and. &
        c_associated(pr, c_loc(rs)), 'Jacobi outputs')
    call expect(batcheigDestroyParams(p) == BATCHEIG_STATUS_SUCCESS, 'DestroyParams')
    s = c_null_ptr
    call expect(batcheigParamsSetTolerance(s, 1.0_dp) == BATCHEIG_STATUS_NOT_INITIALIZED, &
        'params setter on a null params')
  end subroutine

  subroutine test_streaming_and_devices()
    type(c_ptr) :: p
    integer(c_int) :: chunk, streams, count, pos, st, b, i, j
    integer(c_int), target :: devs(4)
    integer(c_int), allocatable :: got(:)
    character(len=200) :: msg
    real(dp) :: a(n, n, nb), a0(n, n, nb), wr(n, nb), wi(n, nb), wr2(n, nb), wi2(n, nb)
    integer(c_int) :: info(nb), info2(nb)

    ! Streaming params: defaults, round trip; invalid values change nothing.
    call expect(batcheigCreateParams(p) == BATCHEIG_STATUS_SUCCESS, 'CreateParams (streaming)')
    chunk = -1
    streams = -1
    call expect(batcheigParamsGetStreaming(p, chunk, streams) == BATCHEIG_STATUS_SUCCESS .and. &
        chunk == 0 .and. streams == 0, 'streaming defaults (0, 0: automatic)')
    call expect(batcheigParamsSetStreaming(p, 7, 2) == BATCHEIG_STATUS_SUCCESS .and. &
        batcheigParamsGetStreaming(p, chunk, streams) == BATCHEIG_STATUS_SUCCESS .and. &
        chunk == 7 .and. streams == 2, 'streaming round trip')
    call expect(batcheigParamsSetStreaming(p, -1, 2) == BATCHEIG_STATUS_INVALID_VALUE, 'negative chunk')
    call expect(batcheigParamsSetStreaming(p, 7, -1) == BATCHEIG_STATUS_INVALID_VALUE, 'negative streams')
    call expect(batcheigParamsSetStreaming(p, 7, 17) == BATCHEIG_STATUS_INVALID_VALUE, '17 streams')
    call expect(batcheigParamsGetStreaming(p, chunk, streams) == BATCHEIG_STATUS_SUCCESS .and. &
        chunk == 7 .and. streams == 2, 'streaming values kept after invalid ones')
    call expect(batcheigParamsSetStreaming(p, 0, 16) == BATCHEIG_STATUS_SUCCESS .and. &
        batcheigParamsGetStreaming(p, chunk, streams) == BATCHEIG_STATUS_SUCCESS .and. &
        chunk == 0 .and. streams == 16, 'streaming automatic chunk, 16 streams')

    ! The host backend ignores them: the same results, bit for bit.
    do b = 1, nb
      do j = 1, n
        do i = 1, n
          a(i, j, b) = rnd()
        end do
      end do
    end do
    a0 = a
    call batcheig_geev(a, wr, wi, info, handle=h, params=p, status=st)
    call expect(st == BATCHEIG_STATUS_SUCCESS .and. all(info == 0), 'geev with streaming params')
    a = a0
    call batcheig_geev(a, wr2, wi2, info2, handle=h)
    call expect(all(info2 == info) .and. all(wr2 == wr) .and. all(wi2 == wi), &
        'streaming params do not change host-backend results')
    call expect(batcheigDestroyParams(p) == BATCHEIG_STATUS_SUCCESS, 'DestroyParams (streaming)')
    call expect(batcheigParamsSetStreaming(c_null_ptr, 1, 1) == BATCHEIG_STATUS_NOT_INITIALIZED, &
        'SetStreaming on a null params')
    call expect(batcheigParamsGetStreaming(c_null_ptr, chunk, streams) == &
        BATCHEIG_STATUS_NOT_INITIALIZED, 'GetStreaming on a null params')

    ! Device list on a host-backend handle: not supported; the default list.
    devs = [0, 1, 2, 3]
    call expect(batcheigSetDevices(h, 1, c_loc(devs)) == BATCHEIG_STATUS_NOT_SUPPORTED, &
        'SetDevices on a host handle')
    call expect(batcheigSetDevices(h, 0, c_null_ptr) == BATCHEIG_STATUS_NOT_SUPPORTED, &
        'SetDevices (default) on a host handle')
    count = -1
    call expect(batcheigGetDevices(h, 4, c_loc(devs), count) == BATCHEIG_STATUS_SUCCESS .and. &
        count == 0 .and. all(devs == [0, 1, 2, 3]), 'GetDevices: default list, nothing written')
    count = -1
    call expect(batcheigGetDevices(h, 0, c_null_ptr, count) == BATCHEIG_STATUS_SUCCESS .and. &
        count == 0, 'GetDevices: count only')
    call expect(batcheigGetDevices(h, -1, c_null_ptr, count) == BATCHEIG_STATUS_INVALID_VALUE .and. &
        batcheigGetErrorArgument(h, pos) == BATCHEIG_STATUS_SUCCESS .and. pos == 2, &
        'GetDevices: capacity < 0 is argument 2')
    call expect(batcheigGetDevices(h, 2, c_null_ptr, count) == BATCHEIG_STATUS_INVALID_VALUE .and. &
        batcheigGetErrorArgument(h, pos) == BATCHEIG_STATUS_SUCCESS .and. pos == 3, &
        'GetDevices: null devices with capacity > 0 is argument 3')

    ! The wrappers.
    call batcheig_set_devices(h, [0_c_int], status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_NOT_SUPPORTED .and. index(msg, 'batcheigSetDevices') > 0, &
        'batcheig_set_devices on a host handle')
    call batcheig_set_devices(h, devs(1:0), status=st)
    call expect(st == BATCHEIG_STATUS_NOT_SUPPORTED, 'batcheig_set_devices (empty list) on a host handle')
    call batcheig_set_devices(h, devs(1:4:2), status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_INVALID_VALUE .and. index(msg, 'contiguous') > 0, &
        'batcheig_set_devices: non-contiguous devices')
    call batcheig_get_devices(h, got, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_SUCCESS .and. allocated(got) .and. len_trim(msg) == 0, &
        'batcheig_get_devices')
    if (allocated(got)) call expect(size(got) == 0, 'batcheig_get_devices: default list is empty')
    call batcheig_get_devices(c_null_ptr, got, status=st)
    call expect(st == BATCHEIG_STATUS_NOT_INITIALIZED .and. allocated(got), &
        'batcheig_get_devices on a null handle')
    if (allocated(got)) call expect(size(got) == 0, 'batcheig_get_devices on a null handle: empty')
  end subroutine

  subroutine test_geev_d()
    real(dp) :: a(ld, n, nb), a0(ld, n, nb), wr(n, nb), wi(n, nb), vr(n, n, nb), vl(ld, n, nb)
    real(dp) :: wr2(n, nb), wi2(n, nb)
    integer(c_int) :: info(nb), st, b, i, j
    do b = 1, nb
      do j = 1, n
        do i = 1, ld
          a(i, j, b) = rnd()
        end do
      end do
    end do
    a0 = a
    call batcheig_geev(a, wr, wi, info, vl=vl, vr=vr, handle=h, status=st)
    call expect(st == BATCHEIG_STATUS_SUCCESS .and. all(info == 0), 'geev d status/info')
    do b = 1, nb
      call expect(ratio(cmplx(a0(1:n, :, b), kind=dp), cmplx(wr(:, b), wi(:, b), dp), &
          unpack(vr(:, :, b), wi(:, b)), epsilon(1.0_dp), .false.) < threshold, 'geev d right')
      call expect(ratio(cmplx(a0(1:n, :, b), kind=dp), cmplx(wr(:, b), wi(:, b), dp), &
          unpack(vl(1:n, :, b), wi(:, b)), epsilon(1.0_dp), .true.) < threshold, 'geev d left')
    end do
    ! Eigenvalues only, temporary handle: the same eigenvalues, bit for bit.
    a = a0
    call batcheig_geev(a, wr2, wi2, info)
    call expect(all(info == 0) .and. all(wr2 == wr) .and. all(wi2 == wi), &
        'geev d eigenvalues without vectors and without handle')
  end subroutine

  subroutine test_geev_s()
    real(sp) :: a(n, n, nb), wr(n, nb), wi(n, nb), vr(n, n, nb)
    real(dp) :: a0(n, n, nb)
    integer(c_int) :: info(nb), b, i, j
    do b = 1, nb
      do j = 1, n
        do i = 1, n
          a(i, j, b) = real(rnd(), sp)
        end do
      end do
    end do
    a0 = a
    call batcheig_geev(a, wr, wi, info, vr=vr, handle=h)
    call expect(all(info == 0), 'geev s info')
    do b = 1, nb
      call expect(ratio(cmplx(a0(:, :, b), kind=dp), cmplx(wr(:, b), wi(:, b), dp), &
          unpack(real(vr(:, :, b), dp), real(wi(:, b), dp)), real(epsilon(1.0_sp), dp), &
          .false.) < threshold, 'geev s right')
    end do
  end subroutine

  subroutine test_geev_z()
    complex(dp) :: a(ld, n, nb), a0(ld, n, nb), w(n, nb), vr(ld, n, nb), vl(n, n, nb)
    integer(c_int) :: info(nb), b, i, j
    do b = 1, nb
      do j = 1, n
        do i = 1, ld
          a(i, j, b) = cmplx(rnd(), rnd(), dp)
        end do
      end do
    end do
    a0 = a
    call batcheig_geev(a, w, info, vl=vl, vr=vr, handle=h)
    call expect(all(info == 0), 'geev z info')
    do b = 1, nb
      call expect(ratio(a0(1:n, :, b), w(:, b), vr(1:n, :, b), epsilon(1.0_dp), .false.) &
          < threshold, 'geev z right')
      call expect(ratio(a0(1:n, :, b), w(:, b), vl(:, :, b), epsilon(1.0_dp), .true.) &
          < threshold, 'geev z left')
    end do
  end subroutine

  subroutine test_geev_c()
    complex(sp) :: a(n, n, nb), w(n, nb), vr(n, n, nb)
    complex(dp) :: a0(n, n, nb)
    integer(c_int) :: info(nb), b, i, j
    do b = 1, nb
      do j = 1, n
        do i = 1, n
          a(i, j, b) = cmplx(rnd(), rnd(), sp)
        end do
      end do
    end do
    a0 = a
    call batcheig_geev(a, w, info, vr=vr, handle=h)
    call expect(all(info == 0), 'geev c info')
    do b = 1, nb
      call expect(ratio(a0(:, :, b), cmplx(w(:, b), kind=dp), cmplx(vr(:, :, b), kind=dp), &
          real(epsilon(1.0_sp), dp), .false.) < threshold, 'geev c right')
    end do
  end subroutine

  ! The raw bind(C) layer with a user workspace gives the wrapper's results.
  subroutine test_geev_raw()
    real(dp), target :: a(n, n, nb), a0(n, n, nb), wr(n, nb), wi(n, nb), vr(n, n, nb)
    real(dp) :: wr2(n, nb), wi2(n, nb), vr2(n, n, nb)
    integer(c_int), target :: info(nb)
    integer(c_int) :: b, i, j, pos
    integer(c_size_t) :: lwork
    integer(c_int8_t), allocatable, target :: work(:)
    do b = 1, nb
      do j = 1, n
        do i = 1, n
          a(i, j, b) = rnd()
        end do
      end do
    end do
    a0 = a
    call batcheig_geev(a, wr2, wi2, info, vr=vr2, handle=h)
    a = a0
    call expect(batcheigDgeevBatched_bufferSize(h, BATCHEIG_EIG_MODE_NOVECTOR, &
        BATCHEIG_EIG_MODE_VECTOR, n, c_null_ptr, n, c_null_ptr, c_null_ptr, c_null_ptr, 1, &
        c_null_ptr, n, lwork, c_null_ptr, nb) == BATCHEIG_STATUS_SUCCESS, 'raw bufferSize')
    allocate (work(max(lwork, 1_c_size_t)))
    call expect(batcheigDgeevBatched(h, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_VECTOR, &
        n, c_loc(a), n, c_loc(wr), c_loc(wi), c_null_ptr, 1, c_loc(vr), n, c_loc(work), lwork, &
        c_loc(info), c_null_ptr, nb) == BATCHEIG_STATUS_SUCCESS, 'raw geev')
    call expect(all(info == 0) .and. all(wr == wr2) .and. all(wi == wi2) .and. all(vr == vr2), &
        'raw geev with user workspace equals the wrapper')
    ! An invalid argument through the raw layer records its position (6: lda).
    call expect(batcheigDgeevBatched(h, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_VECTOR, &
        n, c_loc(a), n - 1, c_loc(wr), c_loc(wi), c_null_ptr, 1, c_loc(vr), n, c_null_ptr, &
        0_c_size_t, c_loc(info), c_null_ptr, nb) == BATCHEIG_STATUS_INVALID_VALUE, 'raw lda < n')
    call expect(batcheigGetErrorArgument(h, pos) == 0 .and. pos == 6, 'raw error position')
  end subroutine

  subroutine test_syevj_d()
    real(dp) :: a(ld, n, nb), a0(ld, n, nb), w(n, nb), res(nb)
    integer(c_int) :: info(nb), sw(nb), b, i, j
    logical :: upper
    do b = 1, nb
      do j = 1, n
        do i = 1, ld
          a(i, j, b) = rnd()
        end do
      end do
    end do
    a0 = a
    do i = 0, 1
      upper = i == 1
      a = a0
      call batcheig_syevj(a, w, info, jobz='V', uplo=merge('U', 'L', upper), sweeps=sw, &
          residual=res, handle=h)
      call expect(all(info == 0) .and. all(sw > 0) .and. all(res <= 2 * epsilon(1.0_dp)), &
          'syevj d info/diagnostics')
      do b = 1, nb
        call expect(all(w(2:, b) >= w(:n - 1, b)), 'syevj d ascending')
        call expect(ratio(herm(cmplx(a0(1:n, :, b), kind=dp), upper), cmplx(w(:, b), kind=dp), &
            cmplx(a(1:n, :, b), kind=dp), epsilon(1.0_dp), .false.) < threshold, 'syevj d residual')
      end do
    end do
  end subroutine

  subroutine test_syevj_s()
    real(sp) :: a(n, n, nb), w(n, nb)
    real(dp) :: a0(n, n, nb)
    integer(c_int) :: info(nb), b, i, j
    do b = 1, nb
      do j = 1, n
        do i = 1, n
          a(i, j, b) = real(rnd(), sp)
        end do
      end do
    end do
    a0 = a
    ! The generic batcheig_heevj takes real symmetric matrices too.
    call batcheig_heevj(a, w, info, jobz='v', uplo='l', handle=h)
    call expect(all(info == 0), 'syevj s info')
    do b = 1, nb
      call expect(ratio(herm(cmplx(a0(:, :, b), kind=dp), .false.), cmplx(w(:, b), kind=dp), &
          cmplx(a(:, :, b), kind=dp), real(epsilon(1.0_sp), dp), .false.) < threshold, &
          'syevj s residual')
    end do
  end subroutine

  subroutine test_heevj_z()
    complex(dp) :: a(ld, n, nb), a0(ld, n, nb)
    real(dp) :: w(n, nb), w2(n, nb)
    real(dp), target :: res(nb), myres(nb)
    integer(c_int), target :: mysw(nb)
    integer(c_int) :: info(nb), b, i, j
    type(c_ptr) :: p, ps, pr
    do b = 1, nb
      do j = 1, n
        do i = 1, ld
          a(i, j, b) = cmplx(rnd(), rnd(), dp)
        end do
      end do
    end do
    a0 = a
    ! The caller's params: its Jacobi outputs (sweeps here) are kept for the
    ! call, residual is routed to res, and the old pointers are restored.
    call expect(batcheigCreateParams(p) == 0, 'heevj z params')
    call expect(batcheigParamsSetJacobiOutputs(p, c_loc(mysw), c_loc(myres)) == 0, &
        'heevj z params outputs')
    mysw = -7
    call batcheig_heevj(a, w, info, jobz='V', uplo='U', residual=res, handle=h, params=p)
    call expect(all(info == 0) .and. all(mysw > 0) .and. all(res <= 2 * epsilon(1.0_dp)), &
        'heevj z info/diagnostics')
    call expect(batcheigParamsGetJacobiOutputs(p, ps, pr) == 0 .and. &
        c_associated(ps, c_loc(mysw)) .and. c_associated(pr, c_loc(myres)), &
        'heevj z restores the params Jacobi outputs')
    call expect(batcheigDestroyParams(p) == 0, 'heevj z destroy params')
    do b = 1, nb
      call expect(ratio(herm(a0(1:n, :, b), .true.), cmplx(w(:, b), kind=dp), a(1:n, :, b), &
          epsilon(1.0_dp), .false.) < threshold, 'heevj z residual')
    end do
    ! Eigenvalues only (default jobz = 'N'), temporary handle: the same
    ! eigenvalues to rounding.
    a = a0
    call batcheig_heevj(a, w2, info, uplo='U')
    call expect(all(info == 0) .and. &
        maxval(abs(w2 - w)) <= 10 * n * epsilon(1.0_dp) * maxval(abs(w)), &
        'heevj z eigenvalues only')
  end subroutine

  subroutine test_heevj_c()
    complex(sp) :: a(n, n, nb)
    real(sp) :: w(n, nb)
    complex(dp) :: a0(n, n, nb)
    integer(c_int) :: info(nb), sw(nb), b, i, j
    do b = 1, nb
      do j = 1, n
        do i = 1, n
          a(i, j, b) = cmplx(rnd(), rnd(), sp)
        end do
      end do
    end do
    a0 = a
    call batcheig_heevj(a, w, info, jobz='V', sweeps=sw, handle=h)
    call expect(all(info == 0) .and. all(sw > 0), 'heevj c info')
    do b = 1, nb
      call expect(ratio(herm(a0(:, :, b), .false.), cmplx(w(:, b), kind=dp), &
          cmplx(a(:, :, b), kind=dp), real(epsilon(1.0_sp), dp), .false.) < threshold, &
          'heevj c residual')
    end do
  end subroutine

  ! A NaN matrix in the middle of a batch is reported in its info only.
  subroutine test_nonfinite()
    real(dp) :: a(n, n, 3), wr(n, 3), wi(n, 3), nan
    complex(dp) :: z(n, n, 3)
    real(dp) :: w(n, 3)
    integer(c_int) :: info(3), i, j
    nan = ieee_nan()
    do j = 1, n
      do i = 1, n
        a(i, j, :) = rnd()
      end do
    end do
    a(3, 2, 2) = nan   ! lower triangle: read by heevj with uplo = 'L'
    z = a
    call batcheig_geev(a, wr, wi, info, handle=h)
    call expect(info(1) == 0 .and. info(2) == BATCHEIG_INFO_NONFINITE .and. info(3) == 0, &
        'geev NaN isolation')
    call batcheig_heevj(z, w, info, jobz='V', handle=h)
    call expect(info(1) == 0 .and. info(2) == BATCHEIG_INFO_NONFINITE .and. info(3) == 0, &
        'heevj NaN isolation')
  end subroutine

  real(dp) function ieee_nan()
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    ieee_nan = ieee_value(1.0_dp, ieee_quiet_nan)
  end function

  subroutine test_quick_returns()
    real(dp) :: a0n(0, 0, 3), wr0(0, 3), wi0(0, 3), ae(n, n, 0), wre(n, 0), wie(n, 0)
    integer(c_int) :: info(3), infoe(0), st
    info = -5
    call batcheig_geev(a0n, wr0, wi0, info, handle=h, status=st)
    call expect(st == 0 .and. all(info == 0), 'geev n = 0')
    call batcheig_geev(ae, wre, wie, infoe, status=st)
    call expect(st == 0, 'geev batch = 0')
    info = -5
    call batcheig_syevj(a0n, wr0, info, jobz='V', status=st)
    call expect(st == 0 .and. all(info == 0), 'syevj n = 0')
  end subroutine

  subroutine test_errors()
    real(dp) :: a(n, n, 2 * nb), wr(n, nb), wi(n, nb), wbad(n + 1, nb)
    real(dp) :: vr(n, n - 1, nb)
    complex(dp) :: z(n, n, nb)
    real(dp) :: w(n, nb)
    integer(c_int) :: info(nb), st
    type(c_ptr) :: p
    character(len=200) :: msg
    a = 1
    z = 1
    call batcheig_geev(a(:, :, 1::2), wr, wi, info, handle=h, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_INVALID_VALUE .and. index(msg, 'contiguous') > 0, &
        'non-contiguous a: ' // trim(msg))
    call batcheig_geev(a(:, :, 1:nb), wr(1:n:2, :), wi, info, handle=h, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_INVALID_VALUE .and. index(msg, 'wr') > 0, &
        'non-contiguous wr: ' // trim(msg))
    call batcheig_geev(a(:, :, 1:nb), wbad, wi, info, handle=h, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_INVALID_VALUE .and. index(msg, 'shape') > 0, &
        'wr of the wrong shape: ' // trim(msg))
    call batcheig_geev(a(:, :, 1:nb), wr, wi, info(1:nb - 1), handle=h, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_INVALID_VALUE .and. index(msg, 'info') > 0, &
        'info too short: ' // trim(msg))
    call batcheig_geev(a(:, :, 1:nb), wr, wi, info, vr=vr, handle=h, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_INVALID_VALUE .and. index(msg, 'vr') > 0, &
        'vr of the wrong shape: ' // trim(msg))
    call batcheig_geev(a(1:n - 1, :, 1:nb), wr, wi, info, handle=h, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_INVALID_VALUE, 'size(a,1) < n: ' // trim(msg))
    call batcheig_heevj(z, w, info, jobz='X', handle=h, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_INVALID_VALUE .and. index(msg, 'jobz') > 0, &
        'bad jobz: ' // trim(msg))
    call batcheig_heevj(z, w, info, uplo='Q', handle=h, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_INVALID_VALUE .and. index(msg, 'uplo') > 0, &
        'bad uplo: ' // trim(msg))
    ! A status from C: a geev variant forced on a Jacobi routine.
    call expect(batcheigCreateParams(p) == 0 .and. &
        batcheigParamsSetAlgorithm(p, BATCHEIG_ALG_GEEV_HOST_QR) == 0, 'params for NOT_SUPPORTED')
    call batcheig_heevj(z, w, info, handle=h, params=p, status=st, errmsg=msg)
    call expect(st == BATCHEIG_STATUS_NOT_SUPPORTED .and. index(msg, 'batcheigZheevjBatched') > 0, &
        'NOT_SUPPORTED from C: ' // trim(msg))
    call expect(batcheigDestroyParams(p) == 0, 'destroy params')
    ! Success clears errmsg.
    call batcheig_heevj(z, w, info, handle=h, status=st, errmsg=msg)
    call expect(st == 0 .and. msg == '', 'errmsg blank on success')
  end subroutine

end program test_fortran
